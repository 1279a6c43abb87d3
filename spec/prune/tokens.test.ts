import { describe, expect, test } from "bun:test";
import { contextGauge, estimateTokens } from "../../lib/prune/tokens.ts";
import { longToolLoop, randomHistory } from "./fixtures.ts";

describe("estimateTokens", () => {
  test("is JSON.stringify(messages).length / 4, rounded up", () => {
    for (const history of [[], longToolLoop({ steps: 20 }), randomHistory(7), randomHistory(8)]) {
      expect(estimateTokens(history)).toBe(Math.ceil(JSON.stringify(history).length / 4));
    }
  });

  test("gives the same answer on a repeat call and for a slice", () => {
    const history = longToolLoop({ steps: 30 });
    const first = estimateTokens(history);
    expect(estimateTokens(history)).toBe(first);
    expect(estimateTokens(history.slice(5))).toBe(Math.ceil(JSON.stringify(history.slice(5)).length / 4));
  });
});

describe("contextGauge", () => {
  test("normal below two thirds, amber from two thirds, red from 90%", () => {
    expect(contextGauge(60_000, 120_000)).toEqual({ percent: 50, level: "normal" });
    expect(contextGauge(79_999, 120_000).level).toBe("normal");
    expect(contextGauge(80_000, 120_000)).toEqual({ percent: 67, level: "amber" });
    expect(contextGauge(107_999, 120_000).level).toBe("amber");
    expect(contextGauge(108_000, 120_000)).toEqual({ percent: 90, level: "red" });
    expect(contextGauge(200_000, 120_000)).toEqual({ percent: 167, level: "red" });
  });
});
