import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { formatTokenCount, statusSegments, statusText } from "../../lib/prompt/status-line.ts";

/** A history whose estimate (JSON length / 4) is about `tokens`. */
function historyOf(tokens: number): ModelMessage[] {
  const overhead = JSON.stringify([{ role: "user", content: "" }]).length;
  return [{ role: "user", content: "x".repeat(tokens * 4 - overhead) }];
}

const base = { model: "gpt-5", pruneAtTokens: 1000, usage: { inputTokens: 15_000, outputTokens: 230 } };

describe("the status line", () => {
  test("shows model, context share, session tokens", () => {
    const segments = statusSegments({ ...base, messages: historyOf(100) });
    expect(statusText(segments)).toBe("gpt-5 · context 10% · 15.2k tokens");
  });

  test("context is normal below two thirds, amber from two thirds, red from 90%", () => {
    const tone = (tokens: number) => statusSegments({ ...base, messages: historyOf(tokens) })[1]!;
    expect(tone(660)).toEqual({ text: "context 66%", tone: "dim" });
    expect(tone(667).tone).toBe("amber");
    expect(tone(899).tone).toBe("amber");
    expect(tone(900)).toEqual({ text: "context 90%", tone: "red" });
    expect(tone(1500)).toEqual({ text: "context 150%", tone: "red" });
  });

  test("the cost segment appears only when a cost is given", () => {
    expect(statusText(statusSegments({ ...base, messages: [] }))).not.toContain("$");
    expect(statusText(statusSegments({ ...base, messages: [], cost: 0.04123 }))).toEndWith("· $0.0412");
    expect(statusText(statusSegments({ ...base, messages: [], cost: "unpriced" }))).toEndWith("· unpriced");
    expect(statusText(statusSegments({ ...base, messages: [], cost: 0 }))).toEndWith("· $0.00");
  });

  test("an empty conversation is 0%", () => {
    expect(statusText(statusSegments({ ...base, messages: [], usage: { inputTokens: 0, outputTokens: 0 } }))).toBe("gpt-5 · context 0% · 0 tokens");
  });
});

test("token counts read at a glance", () => {
  expect(formatTokenCount(950)).toBe("950");
  expect(formatTokenCount(1000)).toBe("1k");
  expect(formatTokenCount(15_230)).toBe("15.2k");
  expect(formatTokenCount(152_300)).toBe("152k");
  expect(formatTokenCount(2_400_000)).toBe("2.4M");
});
