/**
 * Grapheme clusters: what a person sees as one character (`👍🏽`, `👨‍👩‍👧`, `é` written as e and a
 * combining accent, a flag), however many code points it takes. The input line moves, deletes and
 * lays out by these (Intl.Segmenter, granularity "grapheme").
 *
 * Kept cheap on long lines: a move segments only the stretch around the cursor, between the
 * nearest places that are certainly boundaries (a newline, or two neighbours that can never join,
 * such as two Latin letters). Text made only of such characters is never segmented at all. Pure.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Code units that never join a neighbour from the same ranges into a cluster (spec/text/graphemes.test.ts checks every one). */
export const STANDALONE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x02ff], // ASCII and Latin, below the combining marks (CR aside: it joins a LF)
  [0x0370, 0x03ff], // Greek
  [0x0400, 0x0482], // Cyrillic, without its combining marks at U+0483-0489
  [0x048a, 0x052f],
  [0x3041, 0x3096], // hiragana letters (not the sound marks after them)
  [0x30a1, 0x30fa], // katakana letters
  [0x4e00, 0x9fff], // CJK ideographs
  [0xac00, 0xd7a3], // Hangul syllables (the loose jamo that join them are elsewhere)
];

/**
 * True for a code unit that never joins a neighbour that is one too. Emoji, marks, joiners,
 * surrogates and the rest of Unicode are not, and get segmented.
 */
function standsAlone(code: number): boolean {
  if (code < 0x300) return code !== 0x0d;
  for (const [from, to] of STANDALONE_RANGES) if (code >= from && code <= to) return true;
  return false;
}

/** True when `at` is certainly a cluster boundary; false means it may or may not be one. */
function surelyBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (before === 0x0a || after === 0x0a) return before !== 0x0d; // a line break stands alone (but CR LF)
  return standsAlone(before) && standsAlone(after);
}

/** Where the cluster that ends at `at` starts (0 at the start). */
export function prevBoundary(text: string, at: number): number {
  if (at <= 0) return 0;
  if (surelyBoundary(text, at - 1)) return at - 1;
  let from = at - 2;
  while (from > 0 && !surelyBoundary(text, from)) from--;
  let last = from;
  for (const { index } of segmenter.segment(text.slice(from, at))) last = from + index;
  return last;
}

/** Where the cluster that starts at `at` ends (the text's length at its end). */
export function nextBoundary(text: string, at: number): number {
  if (at >= text.length) return text.length;
  if (surelyBoundary(text, at + 1)) return at + 1;
  let to = at + 2;
  while (to < text.length && !surelyBoundary(text, to)) to++;
  const first = segmenter.segment(text.slice(at, to))[Symbol.iterator]().next();
  return first.done ? to : at + first.value.segment.length;
}

/** `at` moved back to the start of the cluster it falls inside (unchanged on a boundary). */
export function snapToBoundary(text: string, at: number): number {
  if (surelyBoundary(text, at)) return at;
  return prevBoundary(text, nextBoundary(text, at));
}

/** The text's clusters in order; text of characters that stand alone is split without segmenting. */
export function graphemes(text: string): string[] {
  let alone = true;
  for (let i = 0; i < text.length && alone; i++) alone = standsAlone(text.charCodeAt(i));
  if (alone) return text.split("");
  return Array.from(segmenter.segment(text), (s) => s.segment);
}
