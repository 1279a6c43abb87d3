import type { ModelMessage } from "ai";
import { memoByIdentity } from "./memo.ts";

export const CHARS_PER_TOKEN = 4;

/** Context shown as a share of the threshold: amber from two thirds, red from 90%. */
export const AMBER_AT_RATIO = 2 / 3;
export const RED_AT_RATIO = 0.9;

const messageChars = memoByIdentity((m: ModelMessage) => JSON.stringify(m).length);

/**
 * `JSON.stringify(messages).length / 4`, rounded up: an estimate, good for deciding when to prune
 * and wrong enough that it must not be read as a token count (the provider's usage figures are the
 * real ones). The instructions and tool definitions are not counted. Computed per message with the
 * length cached by identity, which gives exactly the same number as stringifying the array (the
 * brackets and commas are added) without re-serialising the whole history before every step.
 */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 2 + Math.max(0, messages.length - 1);
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export type ContextLevel = "normal" | "amber" | "red";

/** For the status line: context as a percentage of the prune threshold (settings.pruneAtTokens), and its colour. */
export function contextGauge(tokens: number, pruneAtTokens: number): { percent: number; level: ContextLevel } {
  const ratio = pruneAtTokens > 0 ? tokens / pruneAtTokens : 1;
  const level: ContextLevel = ratio >= RED_AT_RATIO ? "red" : ratio >= AMBER_AT_RATIO ? "amber" : "normal";
  return { percent: Math.round(ratio * 100), level };
}
