import type { ModelMessage } from "ai";
import { pruneForWire, type PruneReport } from "../prune/prune.ts";
import { closeDanglingToolCalls } from "../prune/repair.ts";
import type { ContextWindowInfo } from "../provider/context-window.ts";
import type { AnyTool } from "../tools/define.ts";
import { requestBudget, type RequestBudget } from "./context-budget.ts";

/** What a request is made from: the session's history and what goes around it. */
export type RequestInput = {
  /** The session's history as it is now (never changed here). */
  history: readonly ModelMessage[];
  instructions: string;
  tools: readonly AnyTool[];
  window: ContextWindowInfo;
  /** The user's ceiling on the conversation (settings.pruneAtTokens, config `compactAtTokens`). */
  pruneAtTokens: number;
  /** Sent after the history and never stored (the task list note: task-list-note.ts). */
  tail: readonly ModelMessage[];
};

export type PreparedRequest = {
  instructions: string;
  /** How the window is divided: the conversation's budget, the overhead, the answer's room. */
  budget: RequestBudget;
  /** What pruning did to the history; `tokensAfter` is the conversation's estimated size on the wire. */
  report: PruneReport;
  /** The messages to send: the history repaired and pruned to the budget, then the tail. */
  messages: ModelMessage[];
};

/**
 * The next request, the one way it is made: budgeted to the window (context-budget.ts), the
 * history's dangling calls closed (repair.ts) and pruned to the budget (prune.ts), and the tail
 * after it. The turn sends it before every step; the status line's estimate
 * (request-estimate.ts) measures it, so what the status line shows is what goes out. Pure.
 */
export function prepareRequest(input: RequestInput): PreparedRequest {
  const budget = requestBudget(input.window, { pruneAtTokens: input.pruneAtTokens, instructions: input.instructions, tools: input.tools });
  const { messages: wire, report } = pruneForWire(repaired(input.history), { budgetTokens: budget.conversationTokens, tools: input.tools });
  return { instructions: input.instructions, budget, report, messages: input.tail.length === 0 ? wire : [...wire, ...input.tail] };
}

/** The last history found to have a result for every call: the next one, which starts with it, is checked from where it ends. */
let complete: readonly ModelMessage[] | undefined;

/**
 * closeDanglingToolCalls, without walking again the part of the history found complete at the
 * step before (a long session's history is walked once, not at every step). What came after it
 * is checked alone; only when that finds a call without its result is the whole history repaired,
 * so the answer is always closeDanglingToolCalls' own.
 */
function repaired(history: readonly ModelMessage[]): readonly ModelMessage[] {
  const before = complete;
  if (before && before.length <= history.length && startsWith(history, before)) {
    const added = history.slice(before.length);
    if (closeDanglingToolCalls(added) === added) {
      complete = history;
      return history;
    }
  }
  const closed = closeDanglingToolCalls(history);
  if (closed === history) complete = history;
  return closed;
}

/** The same message objects at the start (messages are never changed in place). */
function startsWith(history: readonly ModelMessage[], start: readonly ModelMessage[]): boolean {
  for (let i = 0; i < start.length; i++) if (history[i] !== start[i]) return false;
  return true;
}
