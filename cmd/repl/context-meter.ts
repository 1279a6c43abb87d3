import type { ModelMessage } from "ai";
import { estimateNextRequest, prunedTokens, type RequestEstimate } from "../../lib/agent/request-estimate.ts";
import type { AnyTool } from "../../lib/tools/define.ts";
import type { ReplSession } from "./session.ts";

/**
 * The status line's context meter: the size of the request the next prompt would send, always
 * computed from the history as it is now. So an interrupted turn counts its partial answer,
 * `/undo` and `/clear` take the figure back with the history, and nothing is left over from a
 * request that went before. Pruning the history is the costly part; it is cached by the history,
 * the tools and the budget (the status line is drawn at every key while the prompt waits).
 */
export function createContextMeter(session: () => ReplSession) {
  let cached: { history: readonly ModelMessage[]; tools: readonly AnyTool[]; budget: number; tokens: number } | undefined;
  return {
    measure(): RequestEstimate {
      const runtime = session().runtime();
      const conversation = session().conversation();
      const tools = conversation.tools;
      const wire = (history: readonly ModelMessage[], budget: number) => {
        if (cached?.history !== history || cached.tools !== tools || cached.budget !== budget) cached = { history, tools, budget, tokens: prunedTokens(tools)(history, budget) };
        return cached.tokens;
      };
      return estimateNextRequest(
        runtime.window.info,
        { pruneAtTokens: runtime.settings.pruneAtTokens, instructions: conversation.instructions(), tools, history: conversation.history, tail: conversation.wireTail() },
        wire,
      );
    },
  };
}

export type ContextMeter = ReturnType<typeof createContextMeter>;
