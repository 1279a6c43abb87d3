import { askElicitation } from "../../lib/mcp/elicitation-form.ts";
import type { ElicitAnswer, ElicitQuestion, Elicitor } from "../../lib/mcp/elicitation.ts";
import type { Key } from "./input/keys.ts";
import type { LoopState } from "./loop-state.ts";
import type { Theme } from "./theme.ts";

/** While another question is up, how often an MCP server's question looks whether it has gone. */
const WAIT_MS = 100;

export type LoopElicitDeps = {
  state: LoopState;
  theme: Theme;
  /** The screen cannot redraw: a question's label is written as a line. */
  pipe: boolean;
  /** The loop's one-key question (state.question); resolves with the key, "escape" for esc, ctrl-c or leaving. */
  askKey(text: string): Promise<string>;
  print(text: string): void;
  render(): void;
};

/**
 * A server's question (`elicitation/create`) put to the user in the interactive loop, with the
 * order and checks of lib/mcp/elicitation-form.ts: the message and its fields written to the
 * transcript, then a one-key question (accept, decline, cancel), then each field read as a typed
 * line on the question row. Like an approval question it takes the live area while a turn runs
 * (the spinner gives way to it). Esc or ctrl-c at any point cancels the whole question, as does
 * leaving shiro or the server withdrawing it. Questions from several servers are asked one after
 * another.
 */
export function createLoopElicitor(deps: LoopElicitDeps): Elicitor {
  let last: Promise<unknown> = Promise.resolve();
  return (question, signal) => {
    const asked = last.then(() => ask(question, signal, deps));
    last = asked.catch(() => undefined);
    return asked;
  };
}

async function ask(question: ElicitQuestion, signal: AbortSignal, deps: LoopElicitDeps): Promise<ElicitAnswer> {
  const { state, theme } = deps;
  // A slash command's one-key question (/undo's) keeps the row until it is answered.
  while (state.question && !signal.aborted && !state.exiting) await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  if (signal.aborted || state.exiting) return { action: "cancel" };
  /** The question this elicitation put up, answered "escape" if the server withdraws it. */
  let mine: LoopState["question"];
  const withdraw = () => {
    if (mine && state.question === mine) mine.answer("escape");
  };
  signal.addEventListener("abort", withdraw, { once: true });
  try {
    return await askElicitation(question, {
      show: (lines) => {
        lines.forEach((line, i) => deps.print(i === 0 ? theme.warn(line) : line));
      },
      askKey: (text) => {
        if (signal.aborted || state.exiting) return Promise.resolve("escape");
        const key = deps.askKey(text);
        mine = state.question;
        return key;
      },
      readLine: (label) => {
        if (signal.aborted || state.exiting) return Promise.resolve(null);
        return new Promise((resolve) => {
          const reading: NonNullable<LoopState["question"]> = {
            text: `${label}:`,
            typed: "",
            answer: (key) => {
              if (state.question === reading) state.question = undefined;
              resolve(key === "enter" ? reading.typed! : null);
            },
          };
          mine = state.question = reading;
          if (deps.pipe) deps.print(reading.text);
          deps.render();
        });
      },
    });
  } finally {
    signal.removeEventListener("abort", withdraw);
    // The spinner counts the call's run, not the wait for the answer.
    if (state.turn) state.activitySince = Date.now();
    deps.render();
  }
}

/** A one-key question as it is drawn; a line question with what is typed so far after it, one space on. */
export function questionOnScreen(question: NonNullable<LoopState["question"]>): { question: string; text?: string } {
  return question.typed === undefined ? { question: question.text } : { question: question.text, text: ` ${question.typed}` };
}

/**
 * A key while a question reads a typed line: text and pastes (on one row) are added, backspace
 * takes the last character back, ctrl-u clears; enter answers "enter" (the line is in `typed`),
 * esc and ctrl-c answer "escape". Other keys do nothing.
 */
export function lineQuestionKey(question: NonNullable<LoopState["question"]>, key: Key): void {
  const typed = question.typed ?? "";
  if (key.name === "text" || key.name === "paste") question.typed = typed + key.text.replace(/\s*\n\s*/g, " ");
  else if (key.name === "backspace") question.typed = Array.from(typed).slice(0, -1).join("");
  else if (key.name === "kill-to-start") question.typed = "";
  else if (key.name === "enter") question.answer("enter");
  else if (key.name === "escape" || key.name === "ctrl-c") question.answer("escape");
}
