import type { ModelMessage } from "ai";
import { deniedLine, OUTCOME_MARKS, outcomeLine, outcomeOfSummary, userFacingError, type CallContext, type CallOutcome } from "../render.ts";
import { derivedSummary } from "./result-summary.ts";
import { BASH_EXITED, BASH_INTERRUPTED, BASH_KILLED, BASH_TIMED_OUT } from "../tools/bash.ts";
import { isInterruptionMessage } from "../text/interruption.ts";
import { compactSummaryOf } from "../text/compact-intro.ts";
import { holdsAfter } from "../text/markdown.ts";
import { NOT_RUN_PREFIX, subjectOf as subjectFromDefinition, type AnyTool } from "../tools/define.ts";

/** Joins a denial's reason and what the user typed to do instead (cmd/repl/approval-gate.ts), as the model reads them. */
export const USER_SAYS_INSTEAD = " The user says what to do instead: ";

/** A message history flattened into what a reader wants to see, in order. */
export type TranscriptItem =
  /** `typed`/`shell`: what the user typed when shiro wrote the prompt for them (lib/agent/conversation.ts TypedPrompt). */
  /** `number`: a prompt the user sent, counted from 1 (what `shiro rewind --to` takes); absent for a summary or a subagent's task. */
  | { type: "user"; text: string; typed?: string; shell?: string[]; number?: number }
  /**
   * The turn of the prompt before it got no answer: nothing came back (`partial` false: a prompt
   * followed by the next prompt or by the end), or what came is followed by a failure. `error` is
   * why, when the session kept it (lib/agent/turn-failure.ts); older sessions say nothing more.
   */
  | { type: "unanswered"; error?: string; partial: boolean }
  | { type: "assistant"; text: string }
  /** The summary `/compact` put in place of the conversation before it (lib/text/compact-intro.ts): not something the user typed. */
  | { type: "summary"; text: string }
  /** The user interrupted the turn here (lib/text/interruption.ts): shown as such, never as a prompt. */
  | { type: "interrupted" }
  | { type: "system"; text: string }
  | { type: "tool-call"; id: string; tool: string; subject: string }
  /**
   * `outcome` is the mark the live screen gave the call (lib/render.ts); `shown`, for a call that
   * was not run, the few words the user saw of its denial; `summary`, for one that ran, the tool's
   * summary the live line showed (both kept by lib/agent/result-notes.ts; absent in older sessions).
   */
  | { type: "tool-result"; id: string; tool: string; text: string; error: boolean; outcome: CallOutcome; shown?: string; summary?: string };

/** The subject of a call (its path, command, pattern or text), by tool name. */
export type SubjectOf = (tool: string, input: unknown) => string | undefined;

/** Without the tool's definition at hand: the input itself when it is a string, else its first string argument. */
export const firstStringArgument: SubjectOf = (_tool, input) => {
  if (!input || typeof input !== "object") return typeof input === "string" ? input : undefined;
  return Object.values(input).find((value): value is string => typeof value === "string");
};

/** Subjects as the tools' definitions give them (toolsFor), the live screen's; other tools by firstStringArgument. */
export function subjectsOf(tools: readonly Pick<AnyTool, "name" | "subject">[]): SubjectOf {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return (name, input) => {
    const tool = byName.get(name);
    return tool ? subjectFromDefinition(tool, input) : firstStringArgument(name, input);
  };
}

/** What kind of subject a tool has (ToolSubject.kind), by tool name. */
export type SubjectKindOf = (tool: string) => string | undefined;

/** Without the tools' definitions: bash's subject is its command line; other tools' are not named on their results. */
export const bashCommandOnly: SubjectKindOf = (tool) => (tool === "bash" ? "command" : undefined);

/** Kinds of subject as the tools' definitions give them; other tools as bashCommandOnly. */
export function subjectKindsOf(tools: readonly Pick<AnyTool, "name" | "subject">[]): SubjectKindOf {
  const byName = new Map(tools.map((tool) => [tool.name, tool.subject.kind]));
  return (name) => byName.get(name) ?? bashCommandOnly(name);
}

/**
 * Flattens messages. Reasoning, files and provider bookkeeping are left out; a reader wants
 * what was said and done. Never throws on shapes it does not know (they are skipped).
 */
export function transcriptItems(messages: readonly ModelMessage[], subjectOf: SubjectOf = firstStringArgument): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  /** The prompts among the items, by index, with the failure their turn ended in, if one was kept. */
  const prompts = new Map<number, string | undefined>();
  /** Prompts the user sent so far. */
  let sent = 0;
  for (const message of messages) {
    const content: unknown = message.content;
    switch (message.role) {
      case "system":
        items.push({ type: "system", text: typeof content === "string" ? content : "" });
        break;
      case "user": {
        if (isInterruptionMessage(message)) {
          items.push({ type: "interrupted" });
          break;
        }
        const text = typeof content === "string" ? content : textOf(content);
        if (!text) break;
        const summary = compactSummaryOf(text);
        if (summary !== undefined) {
          items.push({ type: "summary", text: summary });
          break;
        }
        // A prompt the user sent (the conversation keeps a note with each) gets an answer; a
        // compaction summary or a subagent's task is not one.
        const shiro = shiroNotes(message.providerOptions);
        items.push({ type: "user", text, ...typedOf(message.providerOptions), ...(shiro ? { number: ++sent } : {}) });
        if (shiro) prompts.set(items.length - 1, typeof shiro.failed === "string" ? shiro.failed : undefined);
        break;
      }
      case "assistant": {
        if (typeof content === "string") {
          if (content) items.push({ type: "assistant", text: content });
          break;
        }
        if (!Array.isArray(content)) break;
        /** The answer's text so far in this message, when nothing but reasoning came after it. */
        let answer: Extract<TranscriptItem, { type: "assistant" }> | undefined;
        /** Its text since the live screen last ended it, and whether reasoning came after that. */
        let since = "";
        let reasoned = false;
        for (const part of content) {
          if (part?.type === "reasoning") {
            reasoned = true;
            continue;
          }
          if (part?.type === "text" && typeof part.text === "string") {
            // Text on both sides of reasoning is one answer, as the live screen drew it: a table
            // the reasoning came in the middle of stays one table, continued where it stopped
            // (even mid-row); reasoning that found nothing held ended the line there.
            if (answer) {
              const ended = reasoned && !holdsAfter(since);
              answer.text += (ended && !answer.text.endsWith("\n") ? "\n" : "") + part.text;
              since = ended ? part.text : since + part.text;
            } else if (part.text.trim()) {
              items.push((answer = { type: "assistant", text: part.text }));
              since = part.text;
            }
            reasoned = false;
            continue;
          }
          answer = undefined;
          if (part?.type === "tool-call") items.push({ type: "tool-call", id: String(part.toolCallId), tool: String(part.toolName), subject: safeSubject(subjectOf, String(part.toolName), part.input) });
          else if (part?.type === "tool-result") items.push(resultItem(part));
        }
        break;
      }
      case "tool":
        if (Array.isArray(content)) for (const part of content) if (part?.type === "tool-result") items.push(resultItem(part));
        break;
      default:
        break;
    }
  }
  return withUnansweredClosed(withFailedTurns(items, prompts));
}

/** After each prompt's turn that got no answer, or ended in a failure, an "unanswered" item. */
function withFailedTurns(items: TranscriptItem[], prompts: ReadonlyMap<number, string | undefined>): TranscriptItem[] {
  if (prompts.size === 0) return items;
  const out: TranscriptItem[] = [];
  let open: { error: string | undefined; partial: boolean } | undefined;
  const close = () => {
    if (open && (open.error !== undefined || !open.partial)) out.push({ type: "unanswered", ...(open.error !== undefined ? { error: open.error } : {}), partial: open.partial });
    open = undefined;
  };
  items.forEach((item, i) => {
    if (item.type === "user") {
      close();
      if (prompts.has(i)) open = { error: prompts.get(i), partial: false };
    } else if (open && item.type !== "system") open.partial = true;
    out.push(item);
  });
  close();
  return out;
}

/**
 * A call with no result anywhere (shiro was killed while it ran; the session kept the step so far)
 * ends as interrupted after the calls and results around it, as the repair tells the model.
 */
function withUnansweredClosed(items: TranscriptItem[]): TranscriptItem[] {
  const answered = new Set(items.flatMap((item) => (item.type === "tool-result" ? [item.id] : [])));
  if (items.every((item) => item.type !== "tool-call" || answered.has(item.id))) return items;
  const out: TranscriptItem[] = [];
  let open: TranscriptItem[] = [];
  items.forEach((item, i) => {
    out.push(item);
    if (item.type === "tool-call" && !answered.has(item.id)) open.push({ type: "tool-result", id: item.id, tool: item.tool, text: "", error: true, outcome: "interrupted" });
    const next = items[i + 1];
    if (open.length > 0 && next?.type !== "tool-call" && next?.type !== "tool-result") {
      out.push(...open);
      open = [];
    }
  });
  return out;
}

function resultItem(part: { toolCallId?: unknown; toolName?: unknown; output?: unknown; providerOptions?: unknown }): TranscriptItem {
  const output = (part.output ?? {}) as { type?: string; value?: unknown; reason?: string };
  const base = { type: "tool-result" as const, id: String(part.toolCallId), tool: String(part.toolName) };
  switch (output.type) {
    case "text": {
      const text = String(output.value);
      const read = textOutcome(base.tool, text);
      const shown = read === "denied" ? noteOf(part.providerOptions, "shown") : undefined;
      // An empty summary is one too: the live line had no words after the tool's name.
      const summary = read === "denied" ? undefined : noteOf(part.providerOptions, "summary", true);
      // The summary the live line read its mark from (`exit 1`, `failed: …`) says how the call ended.
      const outcome = summary !== undefined ? outcomeOfSummary(summary) : read;
      return { ...base, text, error: false, outcome, ...(shown ? { shown } : {}), ...(summary !== undefined ? { summary } : {}) };
    }
    case "error-text": {
      const text = String(output.value);
      return { ...base, text, error: true, outcome: /^interrupted before it finished\b/.test(text) ? "interrupted" : "error" };
    }
    case "json":
      return { ...base, text: JSON.stringify(output.value) ?? "", error: false, outcome: "ok" };
    case "error-json":
      return { ...base, text: JSON.stringify(output.value) ?? "", error: true, outcome: "error" };
    case "execution-denied":
      return { ...base, text: `denied${output.reason ? `: ${output.reason}` : ""}`, error: true, outcome: "denied" };
    case "content":
      return { ...base, text: textOf(output.value), error: false, outcome: "ok" };
    default:
      return { ...base, text: "", error: false, outcome: "ok" };
  }
}

/** A text result's outcome: denied (NOT_RUN_PREFIX), or for bash how the command ended (lib/tools/bash.ts). */
function textOutcome(tool: string, text: string): CallOutcome {
  if (text.startsWith(NOT_RUN_PREFIX)) return "denied";
  if (tool !== "bash") return "ok";
  if (text.startsWith(BASH_INTERRUPTED)) return "interrupted";
  if (text.startsWith(BASH_TIMED_OUT) || text.startsWith(BASH_KILLED)) return "failed";
  const code = text.startsWith(BASH_EXITED) ? /^-?\d+/.exec(text.slice(BASH_EXITED.length))?.[0] : undefined;
  return code !== undefined && code !== "0" ? "failed" : "ok";
}

/**
 * The words of a stored result's line, as the live screen had them: the tool's summary (kept with
 * the result, or worked out again for an older session: result-summary.ts, else the text's first
 * line and line count), an error's user part (userFacingError), or `interrupted`.
 */
export function resultWords(item: Extract<TranscriptItem, { type: "tool-result" }>): string {
  if (item.outcome === "interrupted") return "interrupted";
  if (item.outcome === "error") return userFacingError(item.tool, item.text);
  return item.summary ?? derivedSummary(item.tool, item.text) ?? abbreviate(item.text);
}

/**
 * A stored result's line, in the live form (lib/render.ts outcomeLine): `  ✓ read_file: 42 lines ·
 * src/a.ts`, `  ✗ bash: exit 1 · make test`, `  ■ bash: interrupted · sleep 30`; a call that was
 * not run `  ⊘ write_file h.txt: not run (declined)` (deniedLine, naming `subject`). `call` is what
 * ends the line (callNaming). Shared by `shiro sessions show` and a resumed session's replay.
 */
export function resultLine(item: Extract<TranscriptItem, { type: "tool-result" }>, subject: string | undefined, call: CallContext = {}): string {
  if (item.outcome === "denied") {
    const reason = item.text.startsWith(NOT_RUN_PREFIX) ? item.text.slice(NOT_RUN_PREFIX.length) : item.text;
    // What the user said to do instead went to the model with the denial: the replay keeps it.
    const at = reason.lastIndexOf(USER_SAYS_INSTEAD);
    const said = at >= 0 ? firstLine(reason.slice(at + USER_SAYS_INSTEAD.length), 200) : "";
    return deniedLine(item.tool, subject || undefined, item.shown, reason) + (said ? `; you told the model: ${said}` : "");
  }
  return outcomeLine(item.outcome, item.tool, resultWords(item), call);
}

/**
 * The line for a turn that got no answer, indented as a result line is: `  ✗ no answer: provider returned 500 …`, `✗ no answer`
 * when the session kept no reason, `✗ failed: …` after what did come. Shared by `shiro sessions
 * show` and a resumed session's replay.
 */
export function unansweredLine(item: Extract<TranscriptItem, { type: "unanswered" }>): string {
  const head = `  ${OUTCOME_MARKS.error} ${item.partial ? "failed" : "no answer"}`;
  return item.error === undefined ? head : `${head}: ${firstLine(item.error, 200)}`;
}

function textOf(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .map((p) => (p && typeof p === "object" && p.type === "text" && typeof p.text === "string" ? p.text : ""))
    .filter(Boolean)
    .join("\n");
}

function safeSubject(subjectOf: SubjectOf, tool: string, input: unknown): string {
  try {
    return subjectOf(tool, input) ?? "";
  } catch {
    return "";
  }
}

/** A tool result cut to one line: its first non-empty line, clipped. */
export function firstLine(text: string, max = 100): string {
  const first = (text.split("\n").find((line) => line.trim()) ?? "").replace(/\s+/g, " ").trim();
  return first.length > max ? first.slice(0, max - 1) + "…" : first;
}

/** " (N lines)" when the text has more than one line, else "". A trailing newline does not count. */
export function lineCountNote(text: string): string {
  const lines = text.replace(/\n+$/, "").split("\n").length;
  return lines > 1 ? ` (${lines} lines)` : "";
}

/** firstLine and lineCountNote together, for plain text. */
export function abbreviate(text: string, max = 100): string {
  return firstLine(text, max) + lineCountNote(text);
}

/** What the user typed, kept with a prompt shiro wrote for them in the "shiro" namespace; empty for other prompts. */
function typedOf(options: unknown): { typed?: string; shell?: string[] } {
  const shiro = (options as { shiro?: { typed?: unknown; shell?: unknown } } | undefined)?.shiro;
  if (!shiro || typeof shiro !== "object") return {};
  const shell = Array.isArray(shiro.shell) ? shiro.shell.filter((c): c is string => typeof c === "string") : [];
  return { ...(typeof shiro.typed === "string" ? { typed: shiro.typed } : {}), ...(shell.length > 0 ? { shell } : {}) };
}

/** The "shiro" namespace of a message's provider options, when it has one. */
function shiroNotes(options: unknown): Record<string, unknown> | undefined {
  const shiro = (options as { shiro?: unknown } | undefined)?.shiro;
  return shiro && typeof shiro === "object" ? (shiro as Record<string, unknown>) : undefined;
}

/**
 * What the user saw of a call's end, kept with its result in the "shiro" namespace; undefined when
 * not kept (older sessions), and when blank unless `blank` says a blank note is one (a summary).
 */
function noteOf(options: unknown, key: "shown" | "summary", blank = false): string | undefined {
  const value = (options as { shiro?: Record<string, unknown> } | undefined)?.shiro?.[key];
  return typeof value === "string" && (blank || value.trim()) ? value : undefined;
}
