import { largerContextFix, type ContextWindowInfo, type LearnedWindow } from "../provider/context-window.ts";
import { estimateTextTokens, estimateToolTokens } from "../prune/tokens.ts";
import type { AnyTool } from "../tools/define.ts";

/** Room kept for the answer when nothing says how long it may be; at most a quarter of the window. */
export const ANSWER_RESERVE_TOKENS = 8_192;

/** Below this much room for the conversation (estimated tokens) a model cannot work: a file or two fills it. */
export const MIN_CONVERSATION_TOKENS = 2_000;

/** How one request divides the window. Tokens are estimated (lib/prune/tokens.ts) unless said otherwise. */
export type RequestBudget = {
  /** The prune threshold of the conversation: the smaller of `pruneAtTokens` and what fits the window. */
  conversationTokens: number;
  /** What the window leaves for the conversation, before `pruneAtTokens` is applied. */
  windowConversationTokens: number;
  /** The instructions and tool definitions. */
  overheadTokens: number;
  /** Kept for the answer, in the server's tokens. */
  answerTokens: number;
  /** The output limit to send, when the config sets one (ContextWindowInfo.requestOutputTokens). */
  outputTokens?: number;
  /** The window leaves less than MIN_CONVERSATION_TOKENS for the conversation. */
  tooSmall: boolean;
};

/**
 * The conversation's budget for one request: the window, less room for the answer (the output
 * limit sent, else the model's known limit or ANSWER_RESERVE_TOKENS, at most a quarter of the
 * window), converted to estimated tokens with the learned scale, less the instructions and the
 * tool definitions; capped by `pruneAtTokens` (config `compactAtTokens`) and by any cap a refusal
 * left. Pure and cheap: called before every step, and for the status line.
 */
export function requestBudget(window: ContextWindowInfo, opts: { pruneAtTokens: number; instructions: string; tools: readonly AnyTool[] }): RequestBudget {
  const answerTokens = window.requestOutputTokens ?? Math.min(window.maxOutputTokens ?? ANSWER_RESERVE_TOKENS, Math.floor(window.tokens / 4));
  const overheadTokens = estimateTextTokens(opts.instructions) + estimateToolTokens(opts.tools);
  const windowConversationTokens = Math.max(0, Math.floor((window.tokens - answerTokens) / window.scale) - overheadTokens);
  const conversationTokens = Math.min(opts.pruneAtTokens, windowConversationTokens, window.conversationCap ?? Number.POSITIVE_INFINITY);
  return {
    conversationTokens,
    windowConversationTokens,
    overheadTokens,
    answerTokens,
    ...(window.requestOutputTokens !== undefined ? { outputTokens: window.requestOutputTokens } : {}),
    tooSmall: windowConversationTokens < MIN_CONVERSATION_TOKENS,
  };
}

/** The start-up warning for a window too small to work in, with the fix for that server. */
export function smallWindowNotice(model: string, window: ContextWindowInfo, budget: RequestBudget): string {
  return (
    `${model} has a context of ${formatTokens(window.tokens)} tokens (${window.from}), too small to work in: ` +
    `the instructions and tools take about ${formatTokens(budget.overheadTokens)} and the answer needs ${formatTokens(budget.answerTokens)}, ` +
    `leaving ${formatTokens(budget.windowConversationTokens)} for the conversation. To fix it, ${largerContextFix(window.kind, model)}; ` +
    `if shiro has the window wrong, set "contextWindow" for the model in the config.`
  );
}

/** The one notice after a refusal was answered by pruning harder and sending again. */
export function overflowNotice(learned: LearnedWindow): string {
  if (learned.stated === undefined) return "the model's context is smaller than shiro assumed (the server did not say how small); pruned the request harder and carried on";
  if (learned.smaller) return `the model's context is ${formatTokens(learned.stated)} tokens, smaller than shiro assumed; pruned the request to fit and carried on`;
  return `the request did not fit the model's context of ${formatTokens(learned.stated)} tokens after all (shiro's estimate ran low); pruned the request to fit and carried on`;
}

/** The error that ends a turn no pruning can fit: what was tried, and the three ways out. */
export function overflowFailure(model: string, window: ContextWindowInfo, stillRefused: boolean): string {
  const context = window.source === "learned" || window.source === "server" || window.source === "config" || window.source === "env" ? `the model's context of ${formatTokens(window.tokens)} tokens` : "the model's context";
  const what = stillRefused ? `the server still refused the request after it was pruned to fit ${context}` : `the request does not fit ${context}, even with all but the last messages' tool output pruned`;
  return `${what}. Run /compact (shiro sessions compact <id> outside the loop) to summarise the session, ${largerContextFix(window.kind, model)}, or use fewer tools (--no-memory leaves out three). The session is intact.`;
}

/**
 * The error that ends a turn whose newest message alone is larger than the model's window leaves
 * for the conversation (a whole file or log piped in): no pruning or summary can fit it, only a
 * shorter message can.
 */
export function promptTooLarge(promptTokens: number, window: ContextWindowInfo): string {
  return `the message is about ${formatTokens(promptTokens)} tokens (estimated), more than the model's context of ${formatTokens(window.tokens)} tokens can take: send less of it (a part of the file or input, or a summary), or use a model with a larger context. The session is intact.`;
}

/** 4097 → "4,097". */
export function formatTokens(tokens: number): string {
  return tokens.toLocaleString("en-US");
}

/** The window and where it came from, as the header, `/model` and `shiro doctor` show it: `window 8,192 tokens (vLLM /models)`. */
export function windowLabel(window: ContextWindowInfo): string {
  return `window ${formatTokens(window.tokens)} tokens (${window.from})`;
}
