import type { ModelMessage } from "ai";
import type { ContextWindowInfo } from "../provider/context-window.ts";
import { pruneForWire } from "../prune/prune.ts";
import { closeDanglingToolCalls } from "../prune/repair.ts";
import { estimateTokens } from "../prune/tokens.ts";
import type { AnyTool } from "../tools/define.ts";
import { requestBudget } from "./context-budget.ts";

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
 * The request a turn would send now, before the user's next prompt is added: the same budget, the
 * same repair and pruning and the same tail the turn uses (lib/agent/turn.ts), so what the status
 * line shows is what goes out. `wire` may be given when the caller has the pruned size at hand
 * (it is the costly part; the context meter caches it by history). Pure.
 */
export function estimateNextRequest(
  window: ContextWindowInfo,
  opts: { pruneAtTokens: number; instructions: string; tools: readonly AnyTool[]; history: readonly ModelMessage[]; tail: readonly ModelMessage[] },
  wire: (history: readonly ModelMessage[], budgetTokens: number) => number = prunedTokens(opts.tools),
): RequestEstimate {
  const budget = requestBudget(window, { pruneAtTokens: opts.pruneAtTokens, instructions: opts.instructions, tools: opts.tools });
  const conversationTokens = opts.history.length === 0 ? 0 : wire(opts.history, budget.conversationTokens);
  const tailTokens = opts.tail.length === 0 ? 0 : estimateTokens(opts.tail);
  return {
    requestTokens: Math.ceil((budget.overheadTokens + conversationTokens + tailTokens) * window.scale),
    windowTokens: window.tokens,
    conversationTokens,
    budgetTokens: budget.conversationTokens,
  };
}

/** The estimated size of the history as pruning would send it within `budgetTokens`. */
export function prunedTokens(tools: readonly AnyTool[]) {
  return (history: readonly ModelMessage[], budgetTokens: number): number =>
    pruneForWire(closeDanglingToolCalls(history), { pruneAtTokens: budgetTokens, tools }).report.tokensAfter;
}
