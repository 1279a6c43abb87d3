import type { AgentEvent } from "../../lib/events.ts";
import { renderEvent, sanitize } from "../../lib/render.ts";
import type { Screen } from "./input/screen.ts";
import type { Theme } from "./theme.ts";

/** Live output lines shown per tool call; the model still gets its own (head and tail) copy. */
const MAX_SHOWN_OUTPUT_LINES = 400;
const OUTPUT_INDENT = "    ";
const CHARS_PER_TOKEN = 4;
/** Lines of a reasoning block shown live under the transcript while it streams. */
const LIVE_REASONING_LINES = 4;

export type ViewHooks = {
  /** What the turn is doing now, for the status row; undefined when it is over. */
  activity(text: string | undefined): void;
  /** False when someone else names the call (the approval gate does, for tools that change things). */
  announce(tool: string): boolean;
  /** True for a tool that runs a command (its subject is a command line): ctrl-c stops it. */
  runsCommand(tool: string): boolean;
  /** True when the user's own answer already said this call was not run. */
  quietDenial(id: string): boolean;
  /** The last lines of the reasoning streaming now (dimmed in the live area); undefined when it ends. */
  reasoning(lines: readonly string[] | undefined): void;
};

export type EventView = {
  handle(event: AgentEvent): void;
  /** The last reasoning block in full (for /reasoning); "" when there was none. */
  lastReasoning(): string;
};

/**
 * Turns a turn's events into the transcript: text streamed as it arrives; reasoning collapsed to
 * one dim line with a token estimate; each tool call one line (tool + subject) and one outcome
 * line; bash output live and indented; errors red. `activity` feeds the status row shown while
 * the turn runs ("thinking · ~120 tokens", "running bash").
 */
export function createEventView(screen: Screen, theme: Theme, hooks: ViewHooks, now: () => number = Date.now): EventView {
  const { activity } = hooks;
  let reasoningChars = 0;
  let reasoningText = "";
  let reasoningStarted = 0;
  let lastBlock = "";
  const output = new Map<string, { lines: number; atLineStart: boolean; hidden: boolean }>();

  const line = (text: string) => {
    screen.endLine();
    screen.write(text + "\n");
  };
  const settleReasoning = () => {
    if (reasoningChars === 0) return;
    hooks.reasoning(undefined);
    const seconds = Math.round((now() - reasoningStarted) / 1000);
    line(theme.dim(`✻ thought for ${seconds}s · ~${Math.ceil(reasoningChars / CHARS_PER_TOKEN).toLocaleString("en-US")} tokens · /reasoning shows it`));
    lastBlock = reasoningText;
    reasoningChars = 0;
    reasoningText = "";
  };
  const endOutput = (id: string) => {
    const shown = output.get(id);
    if (shown && !shown.atLineStart) screen.write("\n");
    output.delete(id);
  };

  return {
    handle(event) {
      if (event.type !== "reasoning" && event.type !== "step") settleReasoning();
      switch (event.type) {
        case "text":
          activity("writing");
          screen.write(sanitize(event.text));
          return;
        case "reasoning":
          if (reasoningChars === 0) reasoningStarted = now();
          reasoningChars += event.text.length;
          reasoningText += event.text;
          hooks.reasoning(lastLines(sanitize(reasoningText), LIVE_REASONING_LINES));
          activity(`thinking · ~${Math.ceil(reasoningChars / CHARS_PER_TOKEN)} tokens`);
          return;
        case "tool-start":
          activity(`preparing ${event.tool}`);
          return;
        case "tool-call":
          if (hooks.announce(event.tool)) line(renderEvent(event, theme));
          activity(hooks.runsCommand(event.tool) ? `running ${event.tool} · ctrl-c stops the command` : `running ${event.tool}`);
          return;
        case "tool-output":
          showOutput(event.id, event.chunk);
          return;
        case "tool-result":
          endOutput(event.id);
          line(renderEvent(event, theme));
          activity("working");
          return;
        case "tool-error":
          endOutput(event.id);
          line(renderEvent(event, theme));
          activity("working");
          return;
        case "tool-denied":
          endOutput(event.id);
          if (!hooks.quietDenial(event.id)) line(renderEvent(event, theme));
          activity("working");
          return;
        case "compacted":
        case "notice":
        case "error":
          line(renderEvent(event, theme));
          return;
        case "step":
          return;
        case "done":
          screen.endLine();
          if (event.status === "interrupted") line(theme.warn("interrupted"));
          activity(undefined);
          return;
        default:
          return event satisfies never;
      }
    },
    lastReasoning: () => (reasoningChars > 0 ? reasoningText : lastBlock),
  };

  function showOutput(id: string, chunk: string) {
    let state = output.get(id);
    if (!state) {
      screen.endLine();
      state = { lines: 0, atLineStart: true, hidden: false };
      output.set(id, state);
    }
    if (state.hidden) return;
    let text = "";
    for (const piece of sanitize(chunk).split(/(?<=\n)/)) {
      if (state.atLineStart) {
        if (state.lines >= MAX_SHOWN_OUTPUT_LINES) {
          text += theme.dim(`${OUTPUT_INDENT}… more output not shown here\n`);
          state.hidden = true;
          break;
        }
        text += OUTPUT_INDENT;
      }
      text += theme.dim(piece.replace(/\n$/, "")) + (piece.endsWith("\n") ? "\n" : "");
      state.atLineStart = piece.endsWith("\n");
      if (state.atLineStart) state.lines++;
    }
    screen.write(text);
  }
}

/** The last `count` non-empty lines of `text`. */
function lastLines(text: string, count: number): string[] {
  return text.split("\n").map((l) => l.trimEnd()).filter(Boolean).slice(-count);
}
