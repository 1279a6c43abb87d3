import type { AgentEvent } from "./events.ts";

/** Longest subject shown on a tool line; the full input is in --json output. */
const SUBJECT_MAX = 100;
const ERROR_MAX = 300;
const REASON_MAX = 200;

/** The colours a line may use, by meaning. The REPL passes its theme; headless text mode plainTheme. */
export type LineTheme = {
  dim(text: string): string;
  error(text: string): string;
  warn(text: string): string;
  toolName(text: string): string;
};

const same = (text: string) => text;
export const plainTheme: LineTheme = { dim: same, error: same, warn: same, toolName: same };

/** The events shown as one line each: tool activity, notices, errors. */
export type LineEvent = Extract<AgentEvent, { type: "tool-call" | "tool-result" | "tool-error" | "tool-denied" | "compacted" | "notice" | "error" }>;

/**
 * The line for an event that is shown as a line, or undefined for one that is not (streamed
 * text, output chunks, bookkeeping: the REPL draws those itself, headless text mode skips them).
 */
export function renderEvent(event: LineEvent, theme?: LineTheme): string;
export function renderEvent(event: AgentEvent, theme?: LineTheme): string | undefined;
export function renderEvent(event: AgentEvent, theme: LineTheme = plainTheme): string | undefined {
  switch (event.type) {
    case "tool-call":
      return toolCallLine(theme, event.tool, event.subject);
    case "tool-result":
      return theme.dim(`  ✓ ${event.tool}${event.summary ? ": " + clip(event.summary) : ""}`);
    case "tool-error":
      return theme.error(`  ✗ ${event.tool}: ${clip(event.error, ERROR_MAX)}`);
    case "tool-denied":
      return theme.warn(`  ⊘ ${event.tool}${event.subject ? " " + clip(event.subject) : ""} not run: ${clip(event.reason, REASON_MAX)}`);
    case "compacted":
      return theme.dim(`context compacted: ${event.before} messages pruned to ${event.after} on the wire`);
    case "notice":
      return theme.warn(`note: ${event.message}`);
    case "error":
      return theme.error(`error: ${event.message}`);
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

/** `→ bash git status`: a call, as the transcript names it (also the approval prompt's heading). */
export function toolCallLine(theme: LineTheme, tool: string, subject: string | undefined): string {
  return `${theme.dim("→")} ${theme.toolName(tool)}${subject ? " " + clip(subject) : ""}`;
}

/**
 * Text from the model or a command, made safe for the screen: no escape sequences (they would
 * fight the live view, and NO_COLOR means none), carriage returns turned into newlines, tabs
 * into spaces, other control characters dropped.
 */
export function sanitize(text: string): string {
  return Bun.stripANSI(text)
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
}

/** `sanitize`d text collapsed to one line of at most `max` characters. */
export function clip(text: string, max = SUBJECT_MAX): string {
  const flat = sanitize(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}
