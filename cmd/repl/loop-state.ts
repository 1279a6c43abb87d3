import type { HistorySearch } from "../../lib/prompt/history-search.ts";
import type { Choosing } from "./picker.ts";
import type { Pager } from "./pager.ts";

/** A turn in progress: its abort, and the tool calls running in it (ctrl-c stops those first). */
/** `dropped`: the queued prompts esc let go, said once the turn's output is on screen. */
export type Turn = { abort: AbortController; running: Map<string, { tool: string; stop: AbortController }>; dropped?: number };

/**
 * What the interactive loop is doing right now, shared by the controller (drawing), the key
 * dispatch (what a key means now) and the turn runner. One mutable object, owned by the loop; each
 * field says which state the loop is in, and the key dispatch reads them in order of precedence.
 */
export type LoopState = {
  turn: Turn | undefined;
  /** A slash command that talks to the model (/compact, /memory) or a `!cmd`: esc, ctrl-c and exit stop it. */
  command: AbortController | undefined;
  /** A choice list is open (the session picker, the model picker). */
  choosing: Choosing | undefined;
  /** ctrl-r's search line, while open: it takes the input row; the input stays as it was under it. */
  searching: HistorySearch | undefined;
  /**
   * A one-key question from a slash command (/undo's overwrite, /diff's pager) or an MCP server:
   * the next key answers it. With `typed` it reads a line instead (an MCP server's field,
   * cmd/repl/elicit-view.ts): keys edit `typed`, enter answers "enter", esc and ctrl-c "escape".
   */
  question: { text: string; answer: (key: string) => void; typed?: string } | undefined;
  /** The prompt is waiting for a line; resolving it with null leaves the loop. */
  waiting: ((text: string | null) => void) | undefined;
  /** $PAGER or the built-in pager has the terminal: nothing is drawn until it closes; transcript rows wait in `held`. */
  paging: boolean;
  /** The built-in pager (cmd/repl/pager.ts) while it is open: it takes every key. */
  pager: Pager | undefined;
  /** The last lines of a running `!cmd`'s output, drawn under the transcript (cmd/repl/shell-command.ts). */
  output?: string[];
  /** Rows written to the transcript while the pager had the terminal, written once it closes. */
  held: { rows: string[]; kind: string }[];
  /** A remark under the input until the next key ("press ctrl-c again to exit"). */
  hint: string | undefined;
  /** What the spinner says, since when, and its frame. */
  activity: string | undefined;
  activitySince: number;
  /** When what the spinner says is a wait (before a retry): when it ends. */
  activityUntil: number | undefined;
  frame: number;
  spinner: ReturnType<typeof setInterval> | undefined;
  lastCtrlC: number;
  /** When ctrl-d last warned that leaving would cut a turn short or drop queued prompts (0: it did not). */
  lastCtrlD: number;
  exiting: boolean;
  exitCode: number;
  /** A turn has ended since the status line was last written to the transcript (plain and pipe screens only). */
  statusDue: boolean;
};

export function createLoopState(): LoopState {
  return {
    turn: undefined,
    command: undefined,
    choosing: undefined,
    searching: undefined,
    question: undefined,
    waiting: undefined,
    paging: false,
    pager: undefined,
    held: [],
    hint: undefined,
    activity: undefined,
    activitySince: 0,
    activityUntil: undefined,
    frame: 0,
    spinner: undefined,
    lastCtrlC: 0,
    lastCtrlD: 0,
    exiting: false,
    exitCode: 0,
    statusDue: true,
  };
}

/** Puts a command's one-key question on screen; the next key resolves it (esc, ctrl-c and leaving answer "escape"). */
export function askOneKey(state: LoopState, text: string, loop: { pipe: boolean; print: (text: string) => void; render: () => void }): Promise<string> {
  return new Promise((resolve) => {
    state.question = {
      text,
      answer: (key) => {
        state.question = undefined;
        resolve(key);
      },
    };
    if (loop.pipe) loop.print(text);
    loop.render();
  });
}

/** Each this long the spinner moves a frame (rich screens only: the others cannot redraw). */
export const SPINNER_MS = 120;

/** Starts the spinner for what the loop is doing now; stopped with clearInterval(state.spinner). */
export function startSpinner(state: LoopState, rich: boolean, render: () => void, activity: string): void {
  state.activity = activity;
  state.activitySince = Date.now();
  state.activityUntil = undefined;
  if (rich) state.spinner = setInterval(() => (state.frame++, render()), SPINNER_MS);
}
