import type { Settings } from "../config/resolve.ts";
import { hasReasoningControl, withoutReasoning, type CallOptions } from "../provider/call-options.ts";
import { contextOverflow } from "../provider/context-overflow.ts";
import type { ContextWindow } from "../provider/context-window.ts";
import { isMissingItemError, missingItemNotice } from "../provider/missing-item.ts";
import { withNextStep } from "../provider/next-step.ts";
import { describeProviderError, retryDelayMs, serverWords } from "../provider/provider-error.ts";
import { overflowFailure, overflowNotice, promptTooLarge } from "./context-budget.ts";
import { retryNotice } from "./retry.ts";

/**
 * What a turn does about a step that failed before it showed anything (a retry then repeats
 * nothing the user saw). The policies, in the order they are tried:
 *
 * 1. **A missing item**: the provider forgot items the history points at (or failed on a request
 *    that pointed at them). Waiting won't bring them back: the history is sent again inline,
 *    once per turn.
 * 2. **Too long for the context**: the refusal teaches the window what it is, and the request is
 *    pruned to the new budget and sent again, once per step; unless even the most pruned request
 *    cannot fit (or it was refused again), which no retry would change.
 * 3. **The thinking level refused**: a 400-class answer that names the reasoning parameter drops
 *    it for the rest of the session and sends again.
 * 4. **Back-off**: a failure the provider may get over (a rate limit, a 5xx, a dropped
 *    connection) is tried again after a delay, up to `maxRetries` times a step.
 *
 * Anything else ends the turn with the provider's failure worded for the person (`fail`).
 */
export type Recovery =
  /** Rewrite the history without item ids (inlineHistory), say `notice`, and send again. */
  | { action: "inline"; notice: string }
  /** The window learned a smaller size: say `notice`, prune again and send again. */
  | { action: "prune-harder"; notice: string }
  /** Use `callOptions` (without the thinking level) from now on, say `notice`, and send again. */
  | { action: "drop-reasoning"; callOptions: CallOptions; notice: string }
  /** Say `notice`, wait `delayMs` (unless interrupted), and send again. */
  | { action: "back-off"; delayMs: number; notice: string }
  /** Give up: the step ends as it failed, with `message` (else the provider's error, worded) as the turn's error. */
  | { action: "fail"; message?: string };

/** What the turn has already tried in this turn (`inlined`) and this step (the rest). */
export type RecoveryState = { inlined: boolean; overflowRetried: boolean; attempt: number };

export type RecoveryInput = {
  error: unknown;
  state: RecoveryState;
  callOptions: CallOptions;
  settings: Pick<Settings, "maxRetries" | "retryBaseMs" | "baseURL" | "api" | "apiKeySource" | "provider" | "client">;
  modelId: string;
  /** The model's window: an overflow teaches it (ContextWindow.learn). */
  window: ContextWindow;
  /** The failed request's size in estimated tokens: all of it, and its conversation. */
  sent: { requestTokens: number; conversationTokens: number };
  /**
   * Whether the history, pruned to the budget of the window as it is now, fits; when it does not,
   * the newest user message's size and the room the window leaves for a conversation at all.
   */
  fitsNow: () => { fits: true } | { fits: false; promptTokens: number; roomTokens: number };
};

/** The turn's decision on a failed step (see Recovery). Learns the window on an overflow; nothing else changes. */
export function recover(input: RecoveryInput): Recovery {
  const { error, state } = input;
  if (!state.inlined && isMissingItemError(error)) return { action: "inline", notice: missingItemNotice(error) };
  const overflow = contextOverflow(error);
  if (overflow) {
    // A refusal shiro cannot get past ends with what the server said, so its own words are never the only account.
    const quoted = (message: string) => ({ action: "fail" as const, message: withServerWords(message, error) });
    if (state.overflowRetried) return quoted(overflowFailure(input.modelId, input.window.info, true));
    const learned = input.window.learn(overflow, input.sent);
    const now = input.fitsNow();
    if (now.fits) return { action: "prune-harder", notice: overflowNotice(learned) };
    // What the window itself leaves for the conversation, not the (lower) compactAtTokens: a
    // message under it fits once the earlier ones are summarised.
    return quoted(now.promptTokens > now.roomTokens ? promptTooLarge(now.promptTokens, input.window.info) : overflowFailure(input.modelId, input.window.info, false));
  }
  const failure = withNextStep(describeProviderError(error), input.settings);
  if (hasReasoningControl(input.callOptions) && refusesReasoningControl(failure)) {
    return { action: "drop-reasoning", callOptions: withoutReasoning(input.callOptions), notice: REASONING_DROPPED_NOTICE };
  }
  if (failure.retryable && state.attempt <= input.settings.maxRetries) {
    const delayMs = retryDelayMs(state.attempt, input.settings.retryBaseMs, failure.retryAfterMs);
    return { action: "back-off", delayMs, notice: retryNotice(failure.message, delayMs, state.attempt, input.settings.maxRetries) };
  }
  return { action: "fail" };
}

/** `message` and, when the error holds them, the server's own words: `… The server said: "…"`. */
export function withServerWords(message: string, error: unknown): string {
  const words = serverWords(error);
  return words ? `${message} The server said: "${words}"` : message;
}

export const REASONING_DROPPED_NOTICE = "the server does not take a thinking level for this model; shiro sends requests without one from now on";

/** A 400-class refusal that names the reasoning parameter (reasoning_effort, reasoning, reasoning.effort). */
function refusesReasoningControl(failure: { status?: number; message: string }): boolean {
  return failure.status !== undefined && failure.status >= 400 && failure.status < 500 && /reasoning/i.test(failure.message);
}
