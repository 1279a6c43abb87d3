import type { HistoryStore } from "../../lib/prompt/history.ts";
import type { TypeAheadGuard } from "../../lib/prompt/type-ahead.ts";
import { describeQueue, type PromptQueue } from "../../lib/prompt/queue.ts";
import type { AskAnswer } from "../../lib/permissions/policy.ts";
import { answerFor, type ApprovalGate } from "./approval-gate.ts";
import { lineQuestionKey } from "./elicit-view.ts";
import type { InputBox } from "./input/input-box.ts";
import type { Key } from "./input/keys.ts";
import { openSearch, searchKey } from "./input/reverse-search.ts";
import type { Screen } from "./input/screen.ts";
import type { LoopState } from "./loop-state.ts";
import type { PlanHandoff } from "./plan-handoff.ts";
import { chooseKey } from "./picker.ts";
import { PROMPT } from "./replay.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";
import type { TurnRunner } from "./turn-runner.ts";

/** A second ctrl-c on an empty prompt within this long exits; so does a second ctrl-d while work would be lost. */
const EXIT_WINDOW_MS = 2_000;

/**
 * What leaving now would cost, as ctrl-d's first press says it: `ctrl-d again exits (the turn is
 * still running; 1 queued prompt would be dropped)`. Undefined when nothing would be lost. Pure.
 */
export function exitWarning(now: { turn: boolean; command: boolean; queued: number }): string | undefined {
  const losses = [
    now.turn ? "the turn is still running" : now.command ? "a command is still running" : undefined,
    now.queued > 0 ? `${now.queued} queued prompt${now.queued === 1 ? "" : "s"} would be dropped` : undefined,
  ].filter((loss) => loss !== undefined);
  return losses.length > 0 ? `ctrl-d again exits (${losses.join("; ")})` : undefined;
}

export type KeyDeps = {
  state: LoopState;
  session: () => ReplSession;
  input: InputBox;
  gate: ApprovalGate;
  /** Decides whether a key comes after a quiet moment (an answer) or is typing ahead. */
  typeAhead: TypeAheadGuard;
  queue: PromptQueue;
  runner: TurnRunner;
  screen: Screen;
  theme: Theme;
  history: HistoryStore;
  yolo: boolean;
  /** How prompts were shown in the input (a collapsed paste), by the text they send. */
  shownAs: Map<string, string>;
  print: (text: string) => void;
  render: () => void;
  /** Leaves the loop (ctrl-d, a second ctrl-c). */
  exit: () => void;
  /** Opens the pager on the question's whole diff or command (`d`); the question waits under it. */
  details: (lines: string[]) => void;
  /** ctrl-o: the session's transcript in the pager. */
  transcript: () => void;
  /** Plan mode's offer of a finished plan (plan-handoff.ts): enter on an empty prompt accepts it, esc declines. */
  plan?: Pick<PlanHandoff, "offered" | "accept" | "decline">;
};

/**
 * What a key means now. In order: a choice list takes every key; an approval question takes its
 * answer (a y, a or n typed ahead, before the keyboard was quiet for a moment, edits the input
 * instead, like every other key but esc, ctrl-c and ctrl-d; while the user is typing, an answer
 * key followed at once by more text is the start of a word and edits the input too); a command's (or an MCP server's) one-key question takes the next key, or its typed line the keys; ctrl-r's search line edits the search;
 * else the key edits the input, and Enter submits it (or queues it during a turn).
 */
export function createKeyDispatch(deps: KeyDeps): (key: Key) => void {
  const { state, input, gate, screen, theme, print, render, exit, runner } = deps;
  /** An answer key pressed while the user was typing, waiting to see whether a word follows it (lib/prompt/type-ahead.ts). */
  let held: { key: Key; meaning: AskAnswer | "details"; asking: string | undefined; timer: ReturnType<typeof setTimeout> } | undefined;
  /** An answer, or `d`: the whole diff in the pager, the question still up under it. */
  const act = (meaning: AskAnswer | "details") => {
    const lines = meaning === "details" ? gate.details() : undefined;
    if (lines) deps.details(lines);
    else if (meaning !== "details") gate.answer(meaning);
  };
  /** When esc was last pressed at an empty, idle prompt: a second press soon after opens /rewind. */
  let lastEsc = 0;

  function choose(key: Key): void {
    const c = state.choosing!;
    const outcome = chooseKey(c, key);
    if (outcome.done) {
      state.choosing = undefined;
      c.resolve(outcome.id);
      if (outcome.exit) exit();
    }
    render();
  }

  function enter(): void {
    const entered = input.enter();
    if (entered === undefined) return;
    const { text, shown } = entered;
    if (shown !== text) deps.shownAs.set(text, shown);
    if (state.waiting) {
      const resolve = state.waiting;
      state.waiting = undefined;
      return resolve(text);
    }
    deps.queue.push(text);
    if (screen.mode !== "rich") print(theme.dim(describeQueue(deps.queue.items())));
  }

  function ctrlC(): void {
    const now = Date.now();
    if (runner.stopRunningCalls()) return;
    if (input.line().text !== "") return input.clear();
    if (state.turn || state.command) return runner.interrupt();
    if (now - state.lastCtrlC < EXIT_WINDOW_MS) return exit();
    state.lastCtrlC = now;
    const remark = "press ctrl-c again to exit"; // under the input where there is room, else a line
    if (screen.mode === "rich") state.hint = remark;
    else print(theme.dim(remark));
  }

  /**
   * Ctrl-d where it means leaving. With a turn (or a command) running or prompts queued, the
   * first press only says what a second one, soon after, would lose; else it leaves at once.
   */
  function ctrlD(): void {
    const now = Date.now();
    const warning = exitWarning({ turn: state.turn !== undefined, command: state.command !== undefined, queued: deps.queue.size });
    if (!warning || now - state.lastCtrlD < EXIT_WINDOW_MS) return exit();
    state.lastCtrlD = now;
    if (screen.mode === "rich") {
      state.hint = warning;
      // The warning is true only while a second press would exit: it goes when the window closes.
      setTimeout(() => {
        if (state.hint !== warning) return;
        state.hint = undefined;
        render();
      }, EXIT_WINDOW_MS).unref?.();
    } else print(theme.dim(warning));
    render();
  }

  /** A key while an approval question is up; false when it is typing ahead, for the input line. */
  function answer(key: Key, quiet: boolean): boolean {
    if (gate.choosingScope()) {
      if (key.name === "ctrl-d") ctrlD();
      else gate.keep(key);
      return true;
    }
    if (gate.typing()) {
      if (key.name === "ctrl-c") runner.interrupt();
      else if (key.name === "ctrl-d") ctrlD();
      else gate.type(key);
      return true;
    }
    const said = answerFor(key);
    const meaning = said === "details" && !gate.details() ? undefined : said; // d only where there is more to see
    // ctrl-c with a draft typed under the question clears the draft first, as at the prompt; esc interrupts at once.
    if (key.name === "ctrl-c" && input.line().text !== "") input.clear();
    else if (meaning === "interrupt") runner.interrupt();
    else if (meaning === "exit") ctrlD();
    else if (meaning && quiet) {
      // While the user is typing, a y, a or n may be the first letter of a word: held a moment for what follows.
      const ms = deps.typeAhead.holdMs(input.line().text !== "");
      if (ms === 0) act(meaning);
      else held = { key, meaning, asking: gate.asking(), timer: setTimeout(() => settleHeld(undefined), ms) };
    } else return false; // typed ahead (or not an answer at all): it edits the input
    render(); // the hint that typing goes to the prompt may go now
    return true;
  }

  /**
   * The held answer key, once the hold is over (`next` undefined) or another key came: text
   * (a letter, a space, a paste) makes it the start of a word, so it goes to the input; after any
   * other key, or none, it answers the question it was pressed at, if that is still up.
   */
  function settleHeld(next: Key | undefined): void {
    const h = held;
    if (!h) return;
    held = undefined;
    clearTimeout(h.timer);
    const same = gate.pending() !== undefined && !gate.typing() && !gate.choosingScope() && gate.asking() === h.asking;
    if (!same) return; // the question went (the turn ended): the key answered nothing
    if (next && (next.name === "text" || next.name === "paste")) input.edit(h.key);
    else act(h.meaning);
    if (!next) render();
  }

  return (key: Key): void => {
    if (state.exiting) return;
    if (state.pager) return state.pager.key(key); // the built-in pager takes every key until it closes
    if (held) settleHeld(key);
    // Every key counts as typing for the guard, whatever it does next.
    const quiet = deps.typeAhead.press(key.name === "paste" ? "paste" : "key");
    if (state.choosing) return choose(key);
    // A remark under the input lasts until the next key; a second ctrl-d exits only right after the first.
    state.hint = undefined;
    if (key.name !== "ctrl-d") state.lastCtrlD = 0;
    if (gate.pending() && answer(key, quiet)) return;
    if (state.question) {
      if (key.name === "ctrl-d") return ctrlD();
      if (state.question.typed !== undefined) return lineQuestionKey(state.question, key), render();
      // A letter typed on from before the question (keep a note? y…) is typing for the input, as at an approval.
      if (!((key.name === "text" || key.name === "paste") && !quiet)) {
        state.question.answer(key.name === "text" ? key.text.toLowerCase() : key.name === "ctrl-c" ? "escape" : key.name);
        return render();
      }
    }
    if (state.searching) {
      const step = searchKey(state.searching, key);
      state.searching = step.type === "searching" ? step.search : undefined;
      if (step.type === "accept") input.set(step.text);
      return render();
    }
    if (key.name !== "ctrl-c") state.lastCtrlC = 0;
    if (key.name !== "escape") lastEsc = 0;
    // A plan on offer, the prompt empty and waiting: enter accepts it (only after a quiet moment, as y answers a question), esc declines.
    const atOffer = deps.plan?.offered() === true && state.waiting !== undefined && input.line().text === "";
    switch (key.name) {
      case "enter":
        if (atOffer) {
          if (quiet) deps.plan!.accept();
        } else enter();
        break;
      case "tab": {
        const candidates = input.tab();
        if (candidates) print(theme.dim(candidates.join("  ")));
        break;
      }
      case "escape":
        if (input.closePicker()) break;
        if (atOffer) {
          deps.plan!.decline();
          break;
        }
        if (state.turn || state.command || input.line().text !== "" || !state.waiting) {
          runner.interrupt();
          break;
        }
        // Esc twice at an empty prompt, with nothing running: /rewind.
        if (Date.now() - lastEsc < EXIT_WINDOW_MS) {
          lastEsc = 0;
          const resolve = state.waiting;
          state.waiting = undefined;
          resolve("/rewind");
        } else lastEsc = Date.now();
        break;
      case "ctrl-c":
        ctrlC();
        break;
      case "ctrl-d":
        if (input.line().text === "") return ctrlD();
        else input.edit({ name: "delete" });
        break;
      case "ctrl-l":
        screen.clear();
        break;
      case "ctrl-o":
        deps.transcript();
        break;
      case "ctrl-b":
        // While a command runs in the foreground it goes on as a background job (the call returns
        // its id); otherwise ctrl-b is the cursor's left, as in a shell.
        if (deps.session().jobs().sendToBackground() > 0) print(theme.dim("sent to the background: /jobs lists it, /kill stops it"));
        else input.edit({ name: "left" });
        break;
      case "ctrl-r":
        input.closePicker();
        state.searching = openSearch(deps.history.entries());
        break;
      case "shift-tab":
        if (deps.yolo) print(theme.dim("--yolo: edits and commands run without asking; the mode does not apply"));
        else {
          print(theme.dim(deps.session().cycleMode(state.turn !== undefined)));
          // At a question, a mode that runs the call unasked answers it; only once the keyboard
          // was quiet, as y is (a shift-tab typed ahead just switches the mode).
          if (quiet && gate.pending()) gate.modeChanged(deps.session().mode().mode);
        }
        break;
      case "up":
      case "down":
        // With prompts queued and nothing typed, up takes the newest queued prompt back to edit
        // (enter queues it again, in its place at the back), instead of recalling the history.
        if (key.name === "up" && deps.queue.size > 0 && input.line().text === "") {
          input.set(deps.queue.pop()!);
          break;
        }
        // A redrawn input moves between the rows it is drawn on; the one-row plain input between its lines.
        input.arrow(key.name, screen.mode === "rich" ? { prompt: PROMPT, cols: screen.columns() } : undefined);
        break;
      default:
        input.edit(key);
    }
    render();
  };
}
