import { estimateTokens } from "../prune/tokens.ts";
import { prepareRequest, type PreparedRequest, type RequestInput } from "./next-request.ts";

/** How big the next request will be, estimated the way a turn prunes it (lib/prune/tokens.ts). */
export type RequestEstimate = {
  /** The whole request in the server's tokens: instructions, tool definitions, the pruned conversation and the task list note. */
  requestTokens: number;
  /** The model's context window, in the server's tokens. */
  windowTokens: number;
  /** The conversation as it would go on the wire (pruned, repaired), in estimated tokens. */
  conversationTokens: number;
  /** The conversation's budget (its prune threshold), in estimated tokens. */
  budgetTokens: number;
};

/**
 * The size of the request a turn would send now, before the user's next prompt is added: the
 * request made by the turn's own preparation (next-request.ts), so what the status line shows is
 * what goes out. `prepared` may be given when the caller has it at hand. Pure.
 */
export function estimateNextRequest(input: RequestInput, prepared: PreparedRequest = prepareRequest(input)): RequestEstimate {
  const conversationTokens = input.history.length === 0 ? 0 : prepared.report.tokensAfter;
  const tailTokens = input.tail.length === 0 ? 0 : estimateTokens(input.tail);
  return {
    requestTokens: Math.ceil((prepared.budget.overheadTokens + conversationTokens + tailTokens) * input.window.scale),
    windowTokens: input.window.tokens,
    conversationTokens,
    budgetTokens: prepared.budget.conversationTokens,
  };
}

/**
 * estimateNextRequest, kept while its input is the same (the same history, tools, instructions
 * and window objects, the same ceiling and tail): the status line asks at every key while the
 * prompt waits, and pruning the history is the costly part.
 */
export function cachedEstimates(): (input: RequestInput) => RequestEstimate {
  let last: { input: RequestInput; tail: string; estimate: RequestEstimate } | undefined;
  return (input) => {
    const tail = JSON.stringify(input.tail);
    const same =
      last !== undefined &&
      last.input.history === input.history &&
      last.input.tools === input.tools &&
      last.input.instructions === input.instructions &&
      last.input.window === input.window &&
      last.input.pruneAtTokens === input.pruneAtTokens &&
      last.tail === tail;
    if (!same) last = { input, tail, estimate: estimateNextRequest(input) };
    return last!.estimate;
  };
}
