import type { AgentEvent } from "../lib/events.ts";

/**
 * The calls of a headless run that have started and not yet reported, with their subjects: a
 * result line names the command it ends (several may run at once). A call the turn cut short
 * ends with the turn's own "interrupted" result (turn.ts).
 */
export function openCalls() {
  const open = new Map<string, { tool: string; subject: string | undefined }>();
  return {
    /** Notes a call starting or ending; returns the call a result ends. */
    see(event: AgentEvent): { tool: string; subject: string | undefined } | undefined {
      if (event.type === "tool-call") open.set(event.id, { tool: event.tool, subject: event.subject });
      if (event.type !== "tool-result" && event.type !== "tool-error" && event.type !== "tool-denied") return undefined;
      const call = open.get(event.id);
      open.delete(event.id);
      return call;
    },
  };
}
