import type { AgentEvent } from "../../lib/events.ts";
import { callContext, clip, OUTCOME_MARKS, renderEvent, sanitize, sanitizeOutput, subagentLine } from "../../lib/render.ts";
import { overstrike, settleReturns } from "../../lib/text/overstrike.ts";
import { INTERRUPTED_RESULT } from "../../lib/prune/repair.ts";
import { CUT_SHORT } from "../../lib/app/transcript.ts";
import { createMarkdownStream, type MarkdownStream } from "../../lib/text/markdown.ts";
import { fitRow, wrapLine } from "../../lib/text/wrap.ts";
import type { Theme } from "./theme.ts";

/** Lines of a command's output kept in the transcript once it ends; the rest is counted, and /last shows it. */
export const OUTPUT_TAIL_LINES = 10;
/** Lines of a running command's output shown live under the transcript. */
const LIVE_OUTPUT_LINES = 8;
/** Output kept per call for /last (characters); past it the model's own copy stands in. */
const MAX_KEPT_OUTPUT_CHARS = 4_000_000;
const OUTPUT_INDENT = "    ";
const CHARS_PER_TOKEN = 4;
/** The spinner while the turn waits to send a failed request again (with the seconds left). */
export const RETRY_WAIT = "waiting to retry";
/** The end of a subagent's live line while the question on screen is its call's. */
export const WAITING_FOR_ANSWER = "waiting for your answer";
/** Lines of a reasoning block shown live under the transcript while it streams. */
const LIVE_REASONING_LINES = 4;

/** What a group of transcript rows is: the answer, or the tool and bookkeeping lines around it. */
export type RowKind = "text" | "tool";

export type ViewHooks = {
  /** Writes finished rows to the transcript (each fits the width). */
  write(rows: string[], kind: RowKind): void;
  /** The terminal's width now. */
  columns(): number;
  /** What the turn is doing now, for the status row, and until when if it is a wait; undefined when it is over. */
  activity(text: string | undefined, until?: number): void;
  /** False when someone else names the call (the approval gate does, for tools that change things). */
  announce(tool: string): boolean;
  /**
   * The kind of subject a tool has (ToolSubject.kind): a command's tool (bash) is stopped by
   * ctrl-c; a command's and a path's result lines name it.
   */
  subjectKind(tool: string): string | undefined;
  /** True when the user's own answer already said this call was not run. */
  quietDenial(id: string): boolean;
  /** The live rows changed (the line being written, a command's output, the reasoning): redraw. */
  changed(): void;
};

/** The whole of a finished call's result, for /last. */
export type LastResult = { title: string; text: string };

export type EventView = {
  handle(event: AgentEvent): void;
  /** Rows for the live area, in order: the answer's line in progress, running commands' last lines, the reasoning streaming now. */
  liveRows(): string[];
  /**
   * The live line of each subagent running now (`↳ worker · fix the test · step 2 · edit_file a.ts`);
   * the one whose call `asking` is (the approval question on screen) says it waits for the user.
   */
  subagentRows(asking?: string): string[];
  /** The last reasoning block in full (for /reasoning); "" when there was none. */
  lastReasoning(): string;
  /** The last tool result whole (a command's full output), or undefined before the first. */
  lastResult(): LastResult | undefined;
  /** Lets go of the last result and reasoning: they belonged to a conversation no longer open. */
  forget(): void;
};

/** A call whose output is arriving: its lines (all of them while `kept`), the unfinished last one, and lines let go. */
type Running = { lines: string[]; partial: string; chars: number; kept: boolean; dropped: number };

/**
 * Turns a turn's events into the transcript. The answer is Markdown rendered a line at a time
 * (lib/text/markdown.ts): a finished line goes to the transcript, the line in progress stays in
 * the live area. Reasoning collapses to one dim line with its duration and a token estimate. Each
 * tool call is one line (tool + subject) and one outcome line whose mark says how it ended
 * (lib/render.ts); a command's output shows live, and once it ends only its last
 * OUTPUT_TAIL_LINES stay, after a `… N more lines` count (/last opens it whole). `activity`
 * feeds the status row ("thinking · ~120 tokens", "running bash").
 */
export function createEventView(theme: Theme, hooks: ViewHooks, now: () => number = Date.now): EventView {
  const { activity } = hooks;
  let reasoningChars = 0;
  let reasoningText = "";
  let reasoningStarted = 0;
  let lastBlock = "";
  let markdown: MarkdownStream | undefined;
  let last: LastResult | undefined;
  const running = new Map<string, Running>();
  /** Subagents running now, by task call and place in it: what their live line says. */
  const subagents = new Map<string, { kind: string; description: string; step: number; doing?: string; calls: string }>();

  /** A subagent's call ids are `<task call id>/<index>/<its own id>` (lib/agent/subagent/run.ts). */
  const subagentRows = (asking?: string): string[] => {
    const width = hooks.columns() - 1;
    return [...subagents.values()].map((live) => {
      const waiting = asking?.startsWith(live.calls) === true;
      const details = [`step ${live.step}`, ...(live.doing ? [live.doing] : []), ...(waiting ? [theme.warn(WAITING_FOR_ANSWER)] : [])];
      return fitRow(subagentLine(theme, live.kind, live.description, ...details), width);
    });
  };
  const tool = (text: string) => hooks.write(wrapLine(text, hooks.columns()), "tool");
  const settleText = () => {
    if (!markdown) return;
    const rows = markdown.end();
    markdown = undefined;
    if (rows.length > 0) hooks.write(rows, "text");
    hooks.changed();
  };
  const settleReasoning = () => {
    if (reasoningChars === 0) return;
    const seconds = Math.round((now() - reasoningStarted) / 1000);
    tool(theme.dim(`✻ thought for ${seconds}s · ~${Math.ceil(reasoningChars / CHARS_PER_TOKEN).toLocaleString("en-US")} tokens · /reasoning shows it`));
    lastBlock = reasoningText;
    reasoningChars = 0;
    reasoningText = "";
    hooks.changed();
  };
  /** A call is over: its output's tail goes to the transcript, and its result is kept for /last. */
  const finish = (id: string, title: string, fallback: string) => {
    const state = running.get(id);
    running.delete(id);
    const partial = overstrike(state?.partial ?? "");
    if (partial) state!.lines.push(partial);
    const lines = state?.lines ?? [];
    if (lines.length > 0) {
      const width = hooks.columns();
      const hidden = lines.length + (state?.dropped ?? 0) - OUTPUT_TAIL_LINES;
      const rows = lines.slice(-OUTPUT_TAIL_LINES).map((l) => theme.dim(fitRow(OUTPUT_INDENT + l, width - 1)));
      if (hidden > 0) rows.unshift(theme.dim(`${OUTPUT_INDENT}… ${hidden.toLocaleString("en-US")} more ${hidden === 1 ? "line" : "lines"} · /last shows all`));
      hooks.write(rows, "tool");
    }
    last = { title, text: state?.kept && lines.length > 0 ? lines.join("\n") : fallback };
    hooks.changed();
  };

  return {
    handle(event) {
      if (event.type !== "reasoning" && event.type !== "step") settleReasoning();
      // Reasoning that comes while a table is held lets it wait: drawn now, it would be cut short.
      if (event.type !== "text" && event.type !== "step" && !(event.type === "reasoning" && markdown?.holding())) settleText();
      switch (event.type) {
        case "text": {
          activity("writing");
          // One column short of the width, as the live area draws, so the line in progress wraps as it will stay.
          markdown ??= createMarkdownStream(theme.markdown, () => hooks.columns() - 1);
          const rows = markdown.push(sanitize(event.text));
          if (rows.length > 0) hooks.write(rows, "text");
          hooks.changed();
          return;
        }
        case "reasoning":
          if (reasoningChars === 0) reasoningStarted = now();
          reasoningChars += event.text.length;
          reasoningText += event.text;
          activity(`thinking · ~${Math.ceil(reasoningChars / CHARS_PER_TOKEN)} tokens`);
          hooks.changed();
          return;
        case "tool-start":
          activity(`preparing ${event.tool}`);
          return;
        case "tool-call":
          if (hooks.announce(event.tool)) tool(renderEvent(event, theme));
          activity(hooks.subjectKind(event.tool) === "command" ? `running ${event.tool} · ctrl-c stops the command` : `running ${event.tool}`);
          return;
        case "tool-output":
          showOutput(event.id, event.chunk);
          return;
        case "tool-result": {
          const subject = event.subject;
          // A call the turn cut short gets the model's note as its result; /last says it for a person.
          const result = event.output === INTERRUPTED_RESULT ? CUT_SHORT : event.output;
          finish(event.id, `${event.tool}${subject ? " " + subject : ""} · ${event.summary}`, result);
          tool(renderEvent(event, theme, callContext(hooks.subjectKind(event.tool), subject)));
          activity("working");
          return;
        }
        case "tool-error": {
          const subject = event.subject;
          finish(event.id, `${event.tool}${subject ? " " + subject : ""} · error`, event.error);
          tool(renderEvent(event, theme, callContext(hooks.subjectKind(event.tool), subject)));
          activity("working");
          return;
        }
        case "tool-denied": {
          running.delete(event.id);
          // /last speaks of this call, not of an earlier one that did run: it did not run, and why.
          last = { title: `${event.tool}${event.subject ? " " + event.subject : ""} · not run`, text: event.reason };
          if (!hooks.quietDenial(event.id)) tool(renderEvent(event, theme));
          activity("working");
          return;
        }
        case "notice":
          tool(renderEvent(event, theme));
          // A wait before a retry: the spinner counts it down, then the turn is working again.
          if (event.retryInMs !== undefined) activity(RETRY_WAIT, now() + event.retryInMs);
          return;
        case "compacted":
        case "error":
        case "goal-check":
          tool(renderEvent(event, theme)!);
          return;
        case "hook": {
          const line = renderEvent(event, theme);
          if (line !== undefined) tool(line);
          return;
        }
        case "step":
          return;
        case "subagent-start":
          subagents.set(`${event.id}:${event.index}`, { kind: event.kind, description: event.description, step: 1, calls: `${event.id}/${event.index}/` });
          activity(subagentActivity(subagents.size));
          hooks.changed();
          return;
        case "subagent-step": {
          const live = subagents.get(`${event.id}:${event.index}`);
          if (!live) return;
          live.step = event.step;
          if (event.failed !== undefined) live.doing = theme.error(`${OUTCOME_MARKS.error} ${event.tool ?? "call"} failed: ${clip(sanitize(event.failed), 60)}`);
          else if (event.tool) live.doing = `${event.tool}${event.subject ? " " + clip(event.subject, 40) : ""}`;
          hooks.changed();
          return;
        }
        case "subagent-end":
          subagents.delete(`${event.id}:${event.index}`);
          if (subagents.size > 0) activity(subagentActivity(subagents.size));
          tool(renderEvent(event, theme)!);
          hooks.changed();
          return;
        case "done":
          // A call the turn cut short has been ended by then: the turn reports it (turn.ts) as an interrupted result.
          if (event.status === "interrupted") tool(theme.warn("interrupted"));
          running.clear();
          subagents.clear();
          activity(undefined);
          return;
        default:
          return event satisfies never;
      }
    },
    liveRows() {
      const width = hooks.columns() - 1;
      const rows = markdown ? [...markdown.pending()] : [];
      for (const state of running.values()) {
        const partial = overstrike(state.partial);
        const tail = [...state.lines.slice(-LIVE_OUTPUT_LINES), ...(partial ? [partial] : [])].slice(-LIVE_OUTPUT_LINES);
        for (const line of tail) rows.push(theme.dim(fitRow(OUTPUT_INDENT + line, width)));
      }
      rows.push(...subagentRows());
      if (reasoningChars > 0) {
        for (const text of lastLines(sanitize(reasoningText), LIVE_REASONING_LINES)) rows.push(theme.dim(fitRow(`  ${text}`, width)));
      }
      return rows;
    },
    subagentRows,
    lastReasoning: () => (reasoningChars > 0 ? reasoningText : lastBlock),
    lastResult: () => last,
    forget: () => {
      last = undefined;
      lastBlock = "";
      reasoningText = "";
      reasoningChars = 0;
    },
  };

  function showOutput(id: string, chunk: string) {
    let state = running.get(id);
    if (!state) {
      state = { lines: [], partial: "", chars: 0, kept: true, dropped: 0 };
      running.set(id, state);
    }
    // A line redrawn in place (`\r`, a progress bar) is one line, as the terminal would show it.
    const text = sanitizeOutput(chunk);
    state.chars += text.length;
    const pieces = (state.partial + text).split("\n");
    state.partial = settleReturns(pieces.pop()!);
    for (const piece of pieces) state.lines.push(overstrike(piece)); // not push(...pieces): a huge chunk is past the argument limit
    // Past the limit only the tail matters (for the screen); /last falls back to the model's copy.
    if (state.chars > MAX_KEPT_OUTPUT_CHARS) state.kept = false;
    if (!state.kept && state.lines.length > OUTPUT_TAIL_LINES * 4) {
      const dropped = state.lines.length - OUTPUT_TAIL_LINES;
      state.lines.splice(0, dropped);
      state.dropped += dropped;
    }
    hooks.changed();
  }
}

/**
 * The status row while subagents run, with what ctrl-c does then: it stops the task call (every
 * subagent of it) and the turn goes on; esc, which the spinner names too, stops the whole turn.
 */
export function subagentActivity(count: number): string {
  return count === 1 ? "running a subagent · ctrl-c stops the subagent" : `running ${count} subagents · ctrl-c stops the subagents`;
}

/** The last `count` non-empty lines of `text`. */
function lastLines(text: string, count: number): string[] {
  return text.split("\n").map((l) => l.trimEnd()).filter(Boolean).slice(-count);
}
