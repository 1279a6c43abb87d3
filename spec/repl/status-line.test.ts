import { describe, expect, test } from "bun:test";
import { fitSegments, formatTokenCount, statusSegments, statusText } from "../../lib/prompt/status-line.ts";

const base = { model: "gpt-5", requestTokens: 15_230, windowTokens: 400_000, conversationTokens: 100, budgetTokens: 1000 };

describe("the status line", () => {
  test("shows the model and the next request's size against the window, marked as an estimate", () => {
    expect(statusText(statusSegments(base))).toBe("gpt-5 · ctx ~15.2k/400k");
  });

  test("ctx is normal below two thirds of the conversation's budget, amber from two thirds, red from 90%", () => {
    const tone = (tokens: number) => statusSegments({ ...base, conversationTokens: tokens })[1]!;
    expect(tone(660)).toMatchObject({ text: "ctx ~15.2k/400k", tone: "dim" });
    expect(tone(667).tone).toBe("amber");
    expect(tone(899).tone).toBe("amber");
    expect(tone(900).tone).toBe("red");
    expect(tone(1500).tone).toBe("red");
  });

  test("what the session has spent appears only when a cost is given, and says it is spent", () => {
    expect(statusText(statusSegments(base))).not.toContain("$");
    expect(statusText(statusSegments({ ...base, cost: 0.04123 }))).toEndWith("· spent $0.0412");
    expect(statusText(statusSegments({ ...base, cost: "unpriced" }))).toEndWith("· spent: unpriced");
    expect(statusText(statusSegments({ ...base, cost: 0 }))).toEndWith("· spent $0.00");
  });

  test("the approval mode comes last; a mode other than ask stands out", () => {
    expect(statusText(statusSegments({ ...base, cost: 0, mode: "ask" }))).toBe("gpt-5 · ctx ~15.2k/400k · spent $0.00 · mode ask");
    expect(statusSegments({ ...base, mode: "ask" }).at(-1)!.tone).toBe("dim");
    expect(statusSegments({ ...base, mode: "edits" }).at(-1)).toMatchObject({ text: "mode edits", tone: "amber" });
  });
});

describe("a narrow terminal", () => {
  const all = statusSegments({ ...base, cost: 0.04123, mode: "ask" }); // gpt-5 · ctx ~15.2k/400k · spent $0.0412 · mode ask (50 columns)
  const fit = (width: number, segments = all) => statusText(fitSegments(segments, width));

  test("gets every part when they fit", () => {
    expect(fit(50)).toBe("gpt-5 · ctx ~15.2k/400k · spent $0.0412 · mode ask");
  });

  test("loses the spending first, then the default mode, then the model; never a part cut in half", () => {
    expect(fit(49)).toBe("gpt-5 · ctx ~15.2k/400k · mode ask");
    expect(fit(33)).toBe("gpt-5 · ctx ~15.2k/400k");
    expect(fit(22)).toBe("ctx ~15.2k/400k");
    for (let width = 1; width <= 60; width++) {
      const text = fit(width);
      for (const part of text.split(" · ")) expect(all.map((s) => s.text)).toContain(part);
      if (width >= 15) expect(Bun.stringWidth(text)).toBeLessThanOrEqual(width);
    }
  });

  test("keeps a mode other than ask before the model, and a smaller part that still fits after a larger one that does not", () => {
    const edits = statusSegments({ ...base, model: "a-rather-long-model-name", cost: 0, mode: "edits" });
    expect(fit(39, edits)).toBe("ctx ~15.2k/400k · mode edits");
    expect(fit(41, statusSegments({ ...base, model: "a-rather-long-model-name", cost: 0, mode: "ask" }))).toBe("ctx ~15.2k/400k · spent $0.00 · mode ask");
  });

  test("--yolo is said in the mode's place, in red, and kept before the model when the line is short", () => {
    const yolo = statusSegments({ ...base, model: "a-rather-long-model-name", cost: 0, mode: "ask", yolo: true });
    expect(statusText(yolo)).toBe("a-rather-long-model-name · ctx ~15.2k/400k · spent $0.00 · yolo");
    expect(yolo.find((s) => s.text === "yolo")?.tone).toBe("red");
    expect(fit(30, yolo)).toBe("ctx ~15.2k/400k · yolo");
  });

  test("keeps the context even when it alone is too wide", () => {
    expect(fit(5)).toBe("ctx ~15.2k/400k");
  });
});

test("token counts read at a glance", () => {
  expect(formatTokenCount(950)).toBe("950");
  expect(formatTokenCount(1000)).toBe("1k");
  expect(formatTokenCount(15_230)).toBe("15.2k");
  expect(formatTokenCount(152_300)).toBe("152k");
  expect(formatTokenCount(2_400_000)).toBe("2.4M");
});
