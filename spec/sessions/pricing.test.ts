import { expect, test } from "bun:test";
import { checkSpend, costUsd, formatUsd, PRICES, PRICES_CHECKED, priceOf } from "../../lib/sessions/pricing.ts";

test("cost is tokens times the per-million price, input and output separately", () => {
  // gpt-5: $1.25 in, $10 out per million.
  expect(costUsd("gpt-5", { inputTokens: 48_210, outputTokens: 3_105 })).toBeCloseTo(0.0602625 + 0.03105, 10);
  expect(costUsd("gpt-5", { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(11.25, 10);
  expect(costUsd("gpt-4o-mini", { inputTokens: 2_000_000, outputTokens: 500_000 })).toBeCloseTo(0.3 + 0.3, 10);
  expect(costUsd("deepseek-chat", { inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(0.28, 10);
  expect(costUsd("gpt-5", { inputTokens: 0, outputTokens: 0 })).toBe(0);
});

test("cached input is charged at the cached rate when the usage says how much was cached", () => {
  expect(costUsd("gpt-5", { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 800_000 })).toBeCloseTo(0.2 * 1.25 + 0.8 * 0.125, 10);
  // A cached count above the input count is capped, never negative.
  expect(costUsd("gpt-5", { inputTokens: 100, outputTokens: 0, cachedInputTokens: 1_000 })).toBeCloseTo(100 * 0.125e-6, 12);
});

test("an unknown model is unpriced (undefined), never $0", () => {
  expect(costUsd("llama3.1:8b", { inputTokens: 5_000, outputTokens: 500 })).toBeUndefined();
  expect(costUsd("", { inputTokens: 1, outputTokens: 1 })).toBeUndefined();
  expect(formatUsd(undefined)).toBe("unpriced");
});

test("longest-prefix match: snapshots share their model's price; a different model never borrows a shorter one's", () => {
  expect(priceOf("gpt-4o-2024-08-06")).toBe(PRICES["gpt-4o"]);
  expect(priceOf("gpt-4o-mini-2024-07-18")).toBe(PRICES["gpt-4o-mini"]);
  expect(priceOf("gpt-5-mini")).toBe(PRICES["gpt-5-mini"]);
  expect(priceOf("gpt-5-2025-08-07")).toBe(PRICES["gpt-5"]);
  expect(priceOf("gpt-5-chat-latest")).toBe(PRICES["gpt-5-chat"]);
  expect(priceOf("gpt-4.1-nano")).toBe(PRICES["gpt-4.1-nano"]);
  expect(priceOf("o4-mini-2025-04-16")).toBe(PRICES["o4-mini"]);
  expect(priceOf("openai/gpt-5")).toBe(PRICES["gpt-5"]);
  expect(priceOf("GPT-5")).toBe(PRICES["gpt-5"]);
  // Not the same model as the shorter key: unpriced, not mispriced.
  expect(priceOf("gpt-5.2")).toBeUndefined();
  expect(priceOf("gpt-5-turbo-preview")).toBeUndefined();
  expect(priceOf("o3-deep-research")).toBeUndefined();
  expect(priceOf("gpt-5-pro")).toBe(PRICES["gpt-5-pro"]);
});

test("the table covers the current OpenAI models and deepseek-chat, and says when it was checked", () => {
  for (const model of ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini", "deepseek-chat", "deepseek-reasoner"]) {
    const price = priceOf(model);
    expect(price).toBeDefined();
    expect(price!.input).toBeGreaterThan(0);
    expect(price!.output).toBeGreaterThan(0);
  }
  expect(PRICES_CHECKED).toMatch(/^2026-\d{2}-\d{2}$/);
});

test("spend ceiling: ok below 80%, warn from 80%, over at the ceiling; no ceiling or unpriced is ok", () => {
  expect(checkSpend(0.5, 1)).toBe("ok");
  expect(checkSpend(0.79, 1)).toBe("ok");
  expect(checkSpend(0.8, 1)).toBe("warn");
  expect(checkSpend(0.99, 1)).toBe("warn");
  expect(checkSpend(1, 1)).toBe("over");
  expect(checkSpend(3, 1)).toBe("over");
  expect(checkSpend(100, undefined)).toBe("ok");
  expect(checkSpend(undefined, 1)).toBe("ok");
});

test("costs are shown with enough digits to be useful", () => {
  expect(formatUsd(0.0913)).toBe("$0.0913");
  expect(formatUsd(12.345)).toBe("$12.35");
  expect(formatUsd(0)).toBe("$0.00");
});
