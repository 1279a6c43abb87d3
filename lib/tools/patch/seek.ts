/**
 * Where `pattern` occurs in `lines`, at or after `start`: the first index, or -1. Tried with
 * decreasing strictness, as OpenAI's reference apply_patch does: exactly, then ignoring trailing
 * whitespace, then ignoring leading and trailing whitespace (indentation), then with typographic
 * dashes, quotes and odd spaces read as their ASCII forms. With `atEnd` the match at the very end
 * of the file is tried first. An empty pattern matches at `start`. Pure.
 */
export function seekLines(lines: readonly string[], pattern: readonly string[], start: number, atEnd: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  const from = atEnd ? last : start;
  for (const same of PASSES) {
    const wanted = pattern.map(same);
    for (let i = from; i <= last; i++) {
      if (wanted.every((line, k) => same(lines[i + k]!) === line)) return i;
    }
  }
  if (atEnd && from !== start) return seekLines(lines, pattern, start, false);
  return -1;
}

const PASSES: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => normalise(line),
];

function normalise(line: string): string {
  return line
    .trim()
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018-\u201b]/g, "'")
    .replace(/[\u201c-\u201f]/g, '"')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " ");
}
