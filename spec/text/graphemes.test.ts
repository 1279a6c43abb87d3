import { describe, expect, test } from "bun:test";
import { graphemes, nextBoundary, prevBoundary, snapToBoundary, STANDALONE_RANGES } from "../../lib/text/graphemes.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** The cluster boundaries Intl.Segmenter finds over the whole text, its end included. */
const boundaries = (text: string) => [...Array.from(segmenter.segment(text), (s) => s.index), text.length].filter((b) => b > 0);

const MIXED = [
  "A👍🏽B",
  "ab👨‍👩‍👧cd 👩🏾‍💻 done",
  "🇯🇵🇫🇷🇩🇪x🇺",
  "cafe\u0301 nai\u0308ve\n\u0301second line",
  "中文👍🏽字 한국어 각\u11a8 カタカナ\u3099",
  "नमस्ते दुनिया",
  "\u0600123 ok",
  "x\u200d\u200dy❤️‍🔥z",
];

describe("grapheme clusters around the cursor", () => {
  test("stepping right and left stops exactly at the boundaries Intl.Segmenter finds over the whole text", () => {
    for (const text of MIXED) {
      const forward: number[] = [];
      for (let at = 0; at < text.length; ) forward.push((at = nextBoundary(text, at)));
      expect(forward).toEqual(boundaries(text));
      const back: number[] = [];
      for (let at = text.length; at > 0; ) back.push((at = prevBoundary(text, at)));
      expect(back.reverse()).toEqual([0, ...boundaries(text).slice(0, -1)]);
      expect(graphemes(text).join("|")).toBe(Array.from(segmenter.segment(text), (s) => s.segment).join("|"));
    }
  });

  test("a position inside a cluster snaps back to its start", () => {
    const text = "ab👨‍👩‍👧cd";
    for (let at = 2; at < 2 + "👨‍👩‍👧".length; at++) expect(snapToBoundary(text, at)).toBe(2);
    expect(snapToBoundary(text, 1)).toBe(1);
  });

  test("characters taken to stand alone never join each other, so text of them is never segmented", () => {
    const samples = ["a", "가", "\n"]; // a letter, a Hangul syllable (Hangul joins only Hangul), a line break
    const joined: string[] = [];
    for (const [from, to] of STANDALONE_RANGES) {
      for (let code = from; code <= to; code++) {
        if (code === 0x0d) continue;
        const char = String.fromCharCode(code);
        for (const pair of [...samples, char].flatMap((other) => [char + other, other + char])) {
          if (Array.from(segmenter.segment(pair)).length !== 2) joined.push(pair);
        }
      }
    }
    expect(joined).toEqual([]);
  });
});
