import type { ModelMessage } from "ai";
import { toolJsonSchema, type AnyTool } from "../tools/define.ts";
import { memoByIdentity } from "./memo.ts";

export const CHARS_PER_TOKEN = 4;

/** Context shown as a share of the threshold: amber from two thirds, red from 90%. */
export const AMBER_AT_RATIO = 2 / 3;
export const RED_AT_RATIO = 0.9;

/**
 * What one image counts for, in characters of the estimate: 1,500 tokens, about what the hosted
 * APIs bill for an image of at most 2048 pixels a side (lib/image/fit.ts). The history holds a
 * reference, not the bytes, so its JSON alone would count an image as a few dozen tokens.
 */
export const IMAGE_CHARS = 1_500 * CHARS_PER_TOKEN;
/** A stored image's reference in a message's JSON (lib/image/part.ts). */
const IMAGE_REFERENCE = /"reference":\{"shiro":"[0-9a-f]{64}\./g;

/** The JSON length of one message, and IMAGE_CHARS for each image it holds, cached by identity (what estimateTokens adds up). */
export const messageChars = memoByIdentity((m: ModelMessage) => {
  const json = JSON.stringify(m);
  return json.length + (json.includes('"shiro":"') ? (json.match(IMAGE_REFERENCE)?.length ?? 0) * IMAGE_CHARS : 0);
});

/**
 * `JSON.stringify(messages).length / 4` (an image counted as IMAGE_CHARS), rounded up: an estimate, good for deciding when to prune
 * and wrong enough that it must not be read as a token count (the provider's usage figures are the
 * real ones). Counts the conversation only: the instructions and tool definitions are counted apart
 * (estimateTextTokens, estimateToolTokens) and budgeted apart. Computed per message with the
 * length cached by identity, which gives exactly the same number as stringifying the array (the
 * brackets and commas are added) without re-serialising the whole history before every step.
 */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 2 + Math.max(0, messages.length - 1);
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The same estimate for a piece of text sent as it is (the instructions). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

const toolChars = memoByIdentity((tool: AnyTool) =>
  JSON.stringify({ type: "function", name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) }).length,
);

/**
 * The same estimate for the tool definitions a request carries: each as the JSON a server gets
 * (name, description, JSON schema of its input). With a small window they matter: shiro's default
 * tools are about 2.4k tokens.
 */
export function estimateToolTokens(tools: readonly AnyTool[]): number {
  if (tools.length === 0) return 0;
  let chars = 2 + tools.length - 1;
  for (const tool of tools) chars += toolChars(tool);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export type ContextLevel = "normal" | "amber" | "red";

/** For the status line: context as a percentage of the prune threshold (the conversation budget), and its colour. */
export function contextGauge(tokens: number, pruneAtTokens: number): { percent: number; level: ContextLevel } {
  const ratio = pruneAtTokens > 0 ? tokens / pruneAtTokens : 1;
  const level: ContextLevel = ratio >= RED_AT_RATIO ? "red" : ratio >= AMBER_AT_RATIO ? "amber" : "normal";
  return { percent: Math.round(ratio * 100), level };
}
