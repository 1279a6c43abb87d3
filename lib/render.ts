import type { AgentEvent } from "./events.ts";

/** Longest subject shown on a tool line; the full input is in --json output. */
const SUBJECT_MAX = 100;

/**
 * Collapses a subject to one short line for the screen. Control characters are dropped: the text
 * comes from the model, and an escape sequence in it must not reach the terminal.
 */
export function clip(text: string, max = SUBJECT_MAX): string {
  const flat = text.replace(/\s+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/**
 * One plain-text line for the events that are shown as lines (tool activity, notices, errors),
 * or undefined for events that are not (streamed text, output chunks, bookkeeping).
 * Colour is the caller's business.
 */
export function eventLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "tool-call":
      return `→ ${event.tool}${event.subject ? " " + clip(event.subject) : ""}`;
    case "tool-result":
      return `  ✓ ${event.tool}${event.summary ? ": " + clip(event.summary) : ""}`;
    case "tool-error":
      return `  ✗ ${event.tool}: ${clip(event.error, 300)}`;
    case "tool-denied":
      return `  ⊘ ${event.tool}${event.subject ? " " + clip(event.subject) : ""} denied: ${event.reason}`;
    case "compacted":
      return `context compacted: ${event.before} messages pruned to ${event.after} on the wire`;
    case "notice":
      return `note: ${event.message}`;
    case "error":
      return `error: ${event.message}`;
    case "text":
    case "reasoning":
    case "tool-start":
    case "tool-output":
    case "step":
    case "done":
      return undefined;
    default:
      return event satisfies never;
  }
}
