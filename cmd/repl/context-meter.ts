import type { ModelMessage } from "ai";
import type { AgentEvent } from "../../lib/events.ts";
import { pruneForWire } from "../../lib/prune/prune.ts";
import { closeDanglingToolCalls } from "../../lib/prune/repair.ts";
import type { ContextMeasure } from "./header.ts";
import type { ReplSession } from "./session.ts";

/**
 * The status line's context meter: the last request a turn sent, or what the history would send
 * now. A turn's figures are valid while the history is the one it ended with.
 */
export function createContextMeter(session: () => ReplSession) {
  let measured: { history: readonly ModelMessage[]; wire: number; tokens?: number } | undefined;
  let estimated: { history: readonly ModelMessage[]; threshold: number; value: ContextMeasure } | undefined;
  let lastStep: { wire: number; tokens?: number } | undefined;
  return {
    /** A turn starts: its steps report what they sent. */
    turnStarted(): void {
      lastStep = undefined;
    },
    /** Each event of a turn; a step's says what its request carried. */
    observe(event: AgentEvent): void {
      if (event.type !== "step") return;
      const tokens = event.usage.inputTokens + event.usage.outputTokens;
      lastStep = { wire: event.wireTokens ?? 0, ...(tokens > 0 ? { tokens } : {}) };
    },
    /** The turn is over, its history as it ended. */
    turnEnded(): void {
      if (lastStep) measured = { history: session().conversation().history, ...lastStep };
    },
    measure(threshold: number): ContextMeasure {
      const conversation = session().conversation();
      const history = conversation.history;
      if (measured?.history === history) {
        return { wireTokens: measured.wire, contextTokens: measured.tokens ? { count: measured.tokens, estimated: false } : { count: measured.wire, estimated: true } };
      }
      if (history.length === 0) return { wireTokens: 0, contextTokens: { count: 0, estimated: true } };
      if (estimated?.history !== history || estimated.threshold !== threshold) {
        const { report } = pruneForWire(closeDanglingToolCalls(history), { pruneAtTokens: threshold, tools: conversation.tools });
        estimated = { history, threshold, value: { wireTokens: report.tokensAfter, contextTokens: { count: report.tokensAfter, estimated: true } } };
      }
      return estimated.value;
    },
  };
}

export type ContextMeter = ReturnType<typeof createContextMeter>;
