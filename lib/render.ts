import type { AgentEvent } from "./events.ts";

/** Longest subject shown on a tool line; the full input is in --json output. */
const SUBJECT_MAX = 100;
const ERROR_MAX = 300;
const REASON_MAX = 200;
/** The command or path repeated on a result line (`✗ bash: exit 1 · bun test`, `✓ edit_file: +1 -1 · src/a.ts`). */
const NAMING_MAX = 60;

/** What the screen knows of a call when its result arrives. */
export type CallContext = {
  /** The command line of a call that ran one: repeated on its result line, after its output. */
  command?: string;
  /** The path (or paths) a file tool's call is about: repeated on its result line the same way. */
  path?: string;
  /** The pattern a search (glob, grep) looked for: repeated as a command is, by its start. */
  pattern?: string;
};

/**
 * The context a result line gets from its call's subject and the kind of subject the tool has
 * (ToolSubject.kind): commands, paths and patterns are named, since calls made together report
 * one after another; text (a URL, a note) is not.
 */
export function callContext(kind: string | undefined, subject: string | undefined): CallContext {
  if (!subject) return {};
  if (kind === "command") return { command: subject };
  if (kind === "path") return { path: subject };
  if (kind === "pattern") return { pattern: subject };
  return {};
}

/**
 * ` · bun test`, ` · src/a.ts` or ` · *.test.ts`: how a result line whose words are `text` ends,
 * clipped to NAMING_MAX (a command or a pattern keeps its start, a path its end, where the file's
 * name is). Nothing when there is nothing to name, or when `text` names the path already
 * (`no such file src/a.ts`).
 */
export function callNaming(call: CallContext, text: string): string {
  const named = call.command ?? call.pattern;
  if (named) return ` · ${clip(named, NAMING_MAX)}`;
  if (!call.path) return "";
  const path = clip(call.path, Number.MAX_SAFE_INTEGER);
  if (text.includes(path)) return "";
  return ` · ${path.length > NAMING_MAX ? "…" + path.slice(path.length - NAMING_MAX + 1) : path}`;
}

/** The colours a line may use, by meaning. The REPL passes its theme; headless text mode plainTheme. */
export type LineTheme = {
  dim(text: string): string;
  error(text: string): string;
  warn(text: string): string;
  toolName(text: string): string;
  /** The mark of a call that worked. */
  ok(text: string): string;
  /** The mark and words of a call the user interrupted. */
  stopped(text: string): string;
};

const same = (text: string) => text;
export const plainTheme: LineTheme = { dim: same, error: same, warn: same, toolName: same, ok: same, stopped: same };

/**
 * How a call ended, as its mark says: `✓` ok, `✗` failed (a command that exited non-zero, timed
 * out or was killed), `✗` error (the tool itself refused or broke), `⊘` denied, `■` interrupted.
 */
export type CallOutcome = "ok" | "failed" | "error" | "denied" | "interrupted";

export const OUTCOME_MARKS: Record<CallOutcome, string> = { ok: "✓", failed: "✗", error: "✗", denied: "⊘", interrupted: "■" };

/**
 * A successful result's outcome, read from its one-line summary: bash reports `exit N`,
 * `timed out after …`, `killed by SIG…` and `interrupted` (lib/tools/bash.ts), the task tool
 * `failed: …` and `interrupted: …`; anything else worked.
 */
export function outcomeOfSummary(summary: string): CallOutcome {
  if (/^exit (?!0\b)\S/.test(summary) || /^(timed out|killed by|failed:)/.test(summary)) return "failed";
  if (/^interrupted\b/.test(summary)) return "interrupted";
  return "ok";
}

/** Colours a whole outcome line the way its mark means it. */
export function paintOutcome(theme: LineTheme, outcome: CallOutcome, text: string): string {
  switch (outcome) {
    case "ok":
      return theme.dim(text);
    case "failed":
    case "error":
      return theme.error(text);
    case "denied":
      return theme.warn(text);
    case "interrupted":
      return theme.stopped(text);
    default:
      return outcome satisfies never;
  }
}

/**
 * A tool's error as the user reads it: the tool's own name taken off the front and the advice
 * meant for the model (the sentences after the first) left out, so `read_file: src/a.ts does not
 * exist. Use glob or list_dir …` reads `no such file src/a.ts`. The model still gets it all.
 */
export function userFacingError(tool: string, message: string): string {
  let text = sanitize(message).replace(/\s+/g, " ").trim().replace(/^(Tool)?Error: /, "");
  for (const prefix of [`${tool}: `, `${tool} failed: `]) if (text.startsWith(prefix)) text = text.slice(prefix.length);
  const sentence = /^(.*?[^.\s][.!?])(?=\s+[A-Z(])/.exec(text);
  if (sentence) text = sentence[1]!;
  text = text.replace(/\.$/, "");
  const missing = /^(\S+) does not exist\b(?: \(nor does its directory [^)]*\))?$/.exec(text);
  return missing ? `no such file ${missing[1]}` : text;
}

/**
 * A call's result line, unpainted: `  ✓ edit_file: +1 -1 · a.txt`, `  ✗ bash: exit 1 · make`,
 * `  ■ bash: interrupted · sleep 60`. `words` is the tool's summary (or, for an error, the
 * user's part of it, userFacingError); the call's command or path ends the line (callNaming).
 * The one form the live screen, a resumed session's replay and `shiro sessions show` share; a
 * call that was not run has deniedLine instead.
 */
export function outcomeLine(outcome: CallOutcome, tool: string, words: string, call: CallContext = {}): string {
  const said = clip(words, outcome === "ok" || outcome === "failed" ? SUBJECT_MAX : ERROR_MAX);
  const text = `  ${OUTCOME_MARKS[outcome]} ${tool}${said ? ": " + said : ""}`;
  return text + callNaming(call, text);
}

/** The events shown as one line each: tool activity, notices, errors. */
export type LineEvent = Extract<AgentEvent, { type: "tool-call" | "tool-result" | "tool-error" | "tool-denied" | "compacted" | "notice" | "error" }>;

/**
 * The line for an event that is shown as a line, or undefined for one that is not (streamed
 * text, output chunks, bookkeeping: the REPL draws those itself, headless text mode skips them).
 */
export function renderEvent(event: LineEvent, theme?: LineTheme, call?: CallContext): string;
export function renderEvent(event: AgentEvent, theme?: LineTheme, call?: CallContext): string | undefined;
export function renderEvent(event: AgentEvent, theme: LineTheme = plainTheme, call: CallContext = {}): string | undefined {
  switch (event.type) {
    case "tool-call":
      return toolCallLine(theme, event.tool, event.subject);
    case "tool-result": {
      const outcome = outcomeOfSummary(event.summary);
      return paintOutcome(theme, outcome, outcomeLine(outcome, event.tool, event.summary, call));
    }
    case "tool-error": {
      // A call the interrupt stopped before it started is interrupted, not broken.
      const outcome: CallOutcome = /^(\w+: )?not run\b.*\binterrupted\b/i.test(event.error) ? "interrupted" : "error";
      return paintOutcome(theme, outcome, outcomeLine(outcome, event.tool, userFacingError(event.tool, event.error), call));
    }
    case "tool-denied":
      return theme.warn(deniedLine(event.tool, event.subject, event.shown, event.reason));
    case "compacted":
      return theme.dim(`context compacted: ${compactedWords(event)}`);
    case "notice": // a provider's error body, a server's or a hook's words can be in one
      return theme.warn(`note: ${sanitize(event.message)}`);
    case "error":
      return theme.error(`error: ${sanitize(event.message)}`);
    case "hook":
      return hookLine(theme, event);
    case "goal-check": {
      const how = event.passed ? "passed" : event.exitCode === null ? "did not finish" : `failed (exit ${event.exitCode})`;
      const line = `goal check \`${clip(event.command, 60)}\` ${how} · turn ${event.turn}/${event.maxTurns}`;
      return event.passed ? theme.dim(line) : theme.warn(line);
    }
    case "subagent-end":
      return subagentEndLine(theme, event);
    case "text":
    case "reasoning":
    case "tool-start":
    case "tool-output":
    case "step":
    case "done":
    case "subagent-start":
    case "subagent-step":
      return undefined;
    default:
      return event satisfies never;
  }
}

/**
 * A hook that decided something, in one line (`hook PreToolUse blocked Bash: no pushes to main`);
 * a failed hook's own line; nothing for a hook that just ran.
 */
function hookLine(theme: LineTheme, event: Extract<AgentEvent, { type: "hook" }>): string | undefined {
  if (event.decision === undefined) return undefined;
  if (event.decision === "error") return theme.warn(event.reason ?? `hook ${event.event} failed`);
  const did = { block: "blocked", deny: "blocked", allow: "allowed", ask: "asks about", stop: "stopped the turn at" }[event.decision] ?? event.decision;
  const what = event.tool ?? (event.decision === "stop" ? "" : "it");
  const why = event.reason ? `: ${clip(event.reason.split("\n")[0]!, ERROR_MAX)}` : "";
  return theme.dim(`hook ${event.event} ${did}${what ? " " + what : ""}${why}`);
}

/** `↳ explore · find the pagination code · step 4 · grep "offset"`: a subagent, and what it is doing or how it ended. */
export function subagentLine(theme: LineTheme, kind: string, description: string, ...details: string[]): string {
  return `${theme.dim("↳")} ${theme.toolName(kind)} · ${clip(description, 60)}${details.map((d) => theme.dim(" · " + d)).join("")}`;
}

/** The line a subagent leaves when it ends: its outcome, steps and tokens. */
function subagentEndLine(theme: LineTheme, event: Extract<AgentEvent, { type: "subagent-end" }>): string {
  const steps = `${event.steps} ${event.steps === 1 ? "step" : "steps"}`;
  const tokens = `${(event.usage.inputTokens + event.usage.outputTokens).toLocaleString("en-US")} tokens`;
  const troubles = [
    ...(event.failedCalls ? [`${event.failedCalls} ${event.failedCalls === 1 ? "call" : "calls"} failed`] : []),
    ...(event.refusedCalls ? [`${event.refusedCalls} ${event.refusedCalls === 1 ? "call" : "calls"} refused`] : []),
  ];
  switch (event.status) {
    case "success":
      if (troubles.length > 0) return theme.warn(subagentLine(plainTheme, event.kind, event.description, `${OUTCOME_MARKS.ok} done`, steps, tokens, ...troubles));
      return subagentLine(theme, event.kind, event.description, `${OUTCOME_MARKS.ok} done`, steps, tokens);
    case "step-cap":
      return theme.warn(subagentLine(plainTheme, event.kind, event.description, `${OUTCOME_MARKS.failed} stopped at its step cap`, steps, tokens, ...troubles));
    case "interrupted":
      return theme.stopped(subagentLine(plainTheme, event.kind, event.description, `${OUTCOME_MARKS.interrupted} interrupted`, steps, tokens, ...troubles));
    case "error":
      return theme.error(subagentLine(plainTheme, event.kind, event.description, `${OUTCOME_MARKS.error} failed: ${clip(event.error ?? "unknown error", ERROR_MAX)}`, steps));
    default:
      return event.status satisfies never;
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

/**
 * A command's output made safe for the screen like `sanitize`, but carriage returns are kept, so
 * that a line redrawn in place (a progress bar) can be shown as the terminal would (lib/text/overstrike.ts).
 */
export function sanitizeOutput(text: string): string {
  return Bun.stripANSI(text)
    .replace(/\t/g, "    ")
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, "");
}

/**
 * The line of a call that was not run: `⊘ write_file h.txt: not run (declined)`. The model's reason
 * is written for the model (what to do next); the user gets its few words (`shown`), or the
 * reason itself clipped when a denial has none. Live and in a resumed session's replay alike.
 */
export function deniedLine(tool: string, subject: string | undefined, shown: string | undefined, reason: string): string {
  const head = `  ${OUTCOME_MARKS.denied} ${tool}${subject ? " " + clip(subject) : ""}`;
  return shown ? `${head}: not run (${clip(shown, REASON_MAX)})` : `${head} not run: ${clip(reason, REASON_MAX)}`;
}

/** `sanitize`d text collapsed to one line of at most `max` characters. */
export function clip(text: string, max = SUBJECT_MAX): string {
  const flat = sanitize(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/** What a pruning did, in words: the seed's counts, or what was folded when the count stayed the same. */
function compactedWords(event: Extract<AgentEvent, { type: "compacted" }>): string {
  if (event.underTokens === undefined) return `${event.before} messages pruned to ${event.after} on the wire`;
  const under = `to keep the request under ${shortTokens(event.underTokens)} tokens`;
  if (!event.folded) return `older reasoning left out ${under}`;
  return `older tool output folded in ${event.folded} ${event.folded === 1 ? "message" : "messages"} ${under}`;
}

/** 30000 → "30k", 1500 → "1.5k", 800 → "800". */
function shortTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  const k = tokens / 1000;
  return `${k >= 10 ? Math.round(k) : Math.round(k * 10) / 10}k`;
}
