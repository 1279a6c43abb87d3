import type { RequestEstimate } from "../../lib/agent/request-estimate.ts";
import type { ReplSession } from "./session.ts";

/**
 * The status line's context meter: the size of the request the next prompt would send, always
 * computed from the history as it is now (Conversation.nextRequestEstimate, which prepares it the
 * way the turn does). So an interrupted turn counts its partial answer, `/undo` and `/clear` take
 * the figure back with the history, and nothing is left over from a request that went before.
 */
export function createContextMeter(session: () => ReplSession) {
  return {
    measure(): RequestEstimate {
      return session().conversation().nextRequestEstimate();
    },
  };
}

export type ContextMeter = ReturnType<typeof createContextMeter>;
