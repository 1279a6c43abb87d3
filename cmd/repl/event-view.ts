import type { AgentEvent } from "../../lib/events.ts";
import { renderEvent, sanitize } from "../../lib/render.ts";
import type { Screen } from "./input/screen.ts";
import type { Theme } from "./theme.ts";

/** Live output lines shown per tool call; the model still gets its own (head and tail) copy. */
const MAX_SHOWN_OUTPUT_LINES = 400;
const OUTPUT_INDENT = "    ";
const CHARS_PER_TOKEN = 4;

export type ViewHooks = {
  /** What the turn is doing now, for the status row; undefined when it is over. */
  activity(text: string | undefined): void;
  /** False when someone else names the call (the approval gate does, for tools that change things). */
  announce(tool: string): boolean;
  /** True for a tool that runs a command (its subject is a command line): ctrl-c stops it. */
  runsCommand(tool: string): boolean;
  /** True when the user's own answer already said this call was not run. */
  quietDenial(id: string): boolean;
};

export type EventView = {
  handle(event: AgentEvent): void;
};

/**
 * Turns a turn's events into the transcript: text streamed as it arrives; reasoning collapsed to
 * one dim line with a token estimate; each tool call one line (tool + subject) and one outcome
 * line; bash output live and indented; errors red. `activity` feeds the status row shown while
 * the turn runs ("thinking · ~120 tokens", "running bash").
 */
export function createEventView(screen: Screen, theme: Theme, hooks: ViewHooks): EventView {
  const { activity } = hooks;
  let reasoningChars = 0;
  const output = new Map<string, { lines: number; atLineStart: boolean; hidden: boolean }>();

  const line = (text: string) => {
    screen.endLine();
    screen.write(text + "\n");
  };
  const settleReasoning = () => {
    if (reasoningChars === 0) return;
    line(theme.dim(`✻ thought · ~${Math.ceil(reasoningChars / CHARS_PER_TOKEN)} tokens`));
    reasoningChars = 0;
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
          reasoningChars += event.text.length;
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
