import { describe, expect, test } from "bun:test";
import { formatTokenCount, statusSegments, statusText } from "../../lib/prompt/status-line.ts";

const base = { model: "gpt-5", pruneAtTokens: 1000, wireTokens: 100, contextTokens: { count: 15_230, estimated: false } };

describe("the status line", () => {
  test("shows model, the sent request's share of the threshold, and the tokens of the current context", () => {
    expect(statusText(statusSegments(base))).toBe("gpt-5 · context 10% · 15.2k tokens");
  });

  test("an estimate of the tokens is marked as one", () => {
    expect(statusText(statusSegments({ ...base, contextTokens: { count: 1200, estimated: true } }))).toBe("gpt-5 · context 10% · ~1.2k tokens");
  });

  test("context is normal below two thirds, amber from two thirds, red from 90%", () => {
    const tone = (tokens: number) => statusSegments({ ...base, wireTokens: tokens })[1]!;
    expect(tone(660)).toEqual({ text: "context 66%", tone: "dim" });
    expect(tone(667).tone).toBe("amber");
    expect(tone(899).tone).toBe("amber");
    expect(tone(900)).toEqual({ text: "context 90%", tone: "red" });
    expect(tone(1500)).toEqual({ text: "context 150%", tone: "red" });
  });

  test("the cost segment appears only when a cost is given", () => {
    expect(statusText(statusSegments(base))).not.toContain("$");
    expect(statusText(statusSegments({ ...base, cost: 0.04123 }))).toEndWith("· $0.0412");
    expect(statusText(statusSegments({ ...base, cost: "unpriced" }))).toEndWith("· unpriced");
    expect(statusText(statusSegments({ ...base, cost: 0 }))).toEndWith("· $0.00");
  });

  test("the approval mode comes last; a mode other than ask stands out", () => {
    expect(statusText(statusSegments({ ...base, cost: 0, mode: "ask" }))).toBe("gpt-5 · context 10% · 15.2k tokens · $0.00 · mode ask");
    expect(statusSegments({ ...base, mode: "ask" }).at(-1)!.tone).toBe("dim");
    expect(statusSegments({ ...base, mode: "edits" }).at(-1)).toEqual({ text: "mode edits", tone: "amber" });
  });

  test("an empty conversation is 0%", () => {
    expect(statusText(statusSegments({ ...base, wireTokens: 0, contextTokens: { count: 0, estimated: true } }))).toBe("gpt-5 · context 0% · 0 tokens");
  });
});

test("token counts read at a glance", () => {
  expect(formatTokenCount(950)).toBe("950");
  expect(formatTokenCount(1000)).toBe("1k");
  expect(formatTokenCount(15_230)).toBe("15.2k");
  expect(formatTokenCount(152_300)).toBe("152k");
  expect(formatTokenCount(2_400_000)).toBe("2.4M");
});
