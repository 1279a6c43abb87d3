/**
 * What a model costs, in USD per million tokens, from the vendors' published list prices
 * (https://platform.openai.com/docs/pricing, https://api-docs.deepseek.com/quick_start/pricing).
 * Prices change: when one moves, update the row and PRICES_CHECKED. A model missing here is
 * "unpriced" (undefined), never $0 — a ceiling must not pass a model just because it is new.
 * `cachedInput` is the price of input tokens the provider served from its prompt cache; when the
 * usage does not say how many were cached, all input is charged at the full rate (an upper bound).
 */
export const PRICES_CHECKED = "2026-11-29";

export type Price = { input: number; output: number; cachedInput?: number };

export const PRICES: Readonly<Record<string, Price>> = {
  "gpt-5": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5-chat": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5-codex": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cachedInput: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cachedInput: 0.005 },
  "gpt-5-pro": { input: 15, output: 120 },
  "gpt-5.1": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5.1-codex": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o1: { input: 15, output: 60, cachedInput: 7.5 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cachedInput: 0.55 },
  "o3-pro": { input: 20, output: 80 },
  "o4-mini": { input: 1.1, output: 4.4, cachedInput: 0.275 },
  // DeepSeek-V3.2 list price (cache miss / cache hit / output), the same for its thinking mode.
  "deepseek-chat": { input: 0.28, output: 0.42, cachedInput: 0.028 },
  "deepseek-reasoner": { input: 0.28, output: 0.42, cachedInput: 0.028 },
};

/** What may follow a priced id and still be the same model: a dated or "latest" snapshot. */
const SNAPSHOT_SUFFIX = /^-(?:\d{4}-\d{2}-\d{2}|\d{4}|latest)$/;

/**
 * The price of a model id: the longest table key that is the id itself or the id minus a
 * snapshot suffix ("gpt-4o-2024-08-06" → gpt-4o). A vendor prefix ("openai/gpt-5") is ignored.
 * A bare prefix is not enough on purpose: "gpt-5-pro" must not be priced as "gpt-5" (8× less),
 * nor "gpt-5.2" as "gpt-5"; those are unpriced until they have their own row.
 */
export function priceOf(model: string): Price | undefined {
  // Looked up for every step's usage: each name is matched against the table once.
  if (looked.has(model)) return looked.get(model);
  const price = lookUp(model);
  looked.set(model, price);
  return price;
}

const looked = new Map<string, Price | undefined>();

function lookUp(model: string): Price | undefined {
  const id = model.toLowerCase().slice(model.lastIndexOf("/") + 1);
  let best: string | undefined;
  for (const key of Object.keys(PRICES)) {
    if (!id.startsWith(key)) continue;
    const rest = id.slice(key.length);
    if (rest !== "" && !SNAPSHOT_SUFFIX.test(rest)) continue;
    if (!best || key.length > best.length) best = key;
  }
  return best ? PRICES[best] : undefined;
}

export type PricedUsage = {
  inputTokens: number;
  outputTokens: number;
  /** The part of inputTokens served from the provider's prompt cache, when reported. */
  cachedInputTokens?: number;
};

/** USD for `usage` on `model`, or undefined when the model is unpriced. */
export function costUsd(model: string, usage: PricedUsage): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  const cached = Math.min(Math.max(usage.cachedInputTokens ?? 0, 0), usage.inputTokens);
  const cachedRate = price.cachedInput ?? price.input;
  return ((usage.inputTokens - cached) * price.input + cached * cachedRate + usage.outputTokens * price.output) / 1_000_000;
}

/** Share of the ceiling at which the user is warned, once. */
export const SPEND_WARN_FRACTION = 0.8;

export type SpendStatus = "ok" | "warn" | "over";

/**
 * Where a session stands against `maxSpendUsd`: "over" once the cost has reached the ceiling
 * (refuse to start another turn), "warn" from 80% (the caller shows it once per session),
 * else "ok". No ceiling, or an unpriced session (cost undefined), is always "ok" — the caller
 * should say once that an unpriced model cannot be held to a ceiling.
 */
export function checkSpend(costSoFar: number | undefined, maxSpendUsd: number | undefined): SpendStatus {
  if (maxSpendUsd === undefined || costSoFar === undefined) return "ok";
  if (costSoFar >= maxSpendUsd) return "over";
  if (costSoFar >= maxSpendUsd * SPEND_WARN_FRACTION) return "warn";
  return "ok";
}

/** "$0.0913", "$1.24", or "unpriced". */
export function formatUsd(cost: number | undefined): string {
  if (cost === undefined) return "unpriced";
  if (cost === 0) return "$0.00";
  return cost < 1 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
