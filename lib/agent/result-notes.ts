import type { ModelMessage } from "ai";
import type { AgentEvent } from "../events.ts";

/** What the user saw of one call's end, kept with its result in the saved history. */
export type ResultNote = {
  /** For a call that was not run: the few words of its denial (the `tool-denied` event's `shown`, lib/permissions/shown.ts). */
  shown?: string;
  /** For a call that ran: the tool's one-line summary (`42 lines`, `exit 1`, `+1 -1`), the live result line's words. */
  summary?: string;
};

/**
 * What to keep of an event that ends a call: a denial's words, when it had some; a result's
 * summary, even an empty one (the live line then had no words after the tool's name, and the
 * replay must not put the result's first line there instead). Undefined for any other event.
 */
export function resultNote(event: AgentEvent): ResultNote | undefined {
  if (event.type === "tool-denied") return event.shown ? { shown: event.shown } : undefined;
  if (event.type === "tool-result") return { summary: event.summary };
  return undefined;
}

/**
 * The step's tool results with what the user saw of each (ResultNote), kept in the result part's
 * `providerOptions.shiro` (`shown`, `summary`). A resumed session's replay and `shiro sessions
 * show` draw the live line again from it instead of from the text written for the model.
 * Providers read only their own namespace, so what the model is sent does not change. Returns
 * the same array when there is nothing to add.
 */
export function withResultNotes(messages: ModelMessage[], notes: ReadonlyMap<string, ResultNote>): ModelMessage[] {
  if (notes.size === 0) return messages;
  return messages.map((m) =>
    m.role === "tool"
      ? {
          ...m,
          content: m.content.map((p) => {
            const note = p.type === "tool-result" ? notes.get(p.toolCallId) : undefined;
            return p.type === "tool-result" && note ? { ...p, providerOptions: { ...p.providerOptions, shiro: { ...p.providerOptions?.shiro, ...note } } } : p;
          }),
        }
      : m,
  );
}
