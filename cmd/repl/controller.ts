import type { AgentEvent } from "../../lib/events.ts";
import type { HistoryStore } from "../../lib/prompt/history.ts";
import { renderTodos } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { createPromptQueue, describeQueue } from "../../lib/prompt/queue.ts";
import { parseInput, unknownCommandHint } from "../../lib/prompt/slash-commands.ts";
import { answerFor, createApprovalGate } from "./approval-gate.ts";
import { runCommand } from "./commands.ts";
import { createEventView } from "./event-view.ts";
import { headerLines, statusLine } from "./header.ts";
import { createInputBox } from "./input/input-box.ts";
import type { Key } from "./input/keys.ts";
import type { Screen } from "./input/screen.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";

const PROMPT = "› ";
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_MS = 120;
/** A second ctrl-c on an empty prompt within this long exits. */
const CTRL_C_EXIT_WINDOW_MS = 2_000;

export type ReplDeps = {
  /** Opens the session (its first conversation) once the loop's printer exists. */
  openSession(onTodos: (todos: readonly Todo[]) => void): Promise<ReplSession>;
  screen: Screen;
  theme: Theme;
  history: HistoryStore;
  /** Where the loop runs: @path completion and the approval previews resolve against it. */
  workspace: { root: string; cwd: string };
  yolo: boolean;
  version: string;
  home: string | undefined;
  /** The prompt given on the command line (`shiro "…"`), sent as the first one. */
  initialPrompt?: string;
  /** Shown under the header (e.g. a history file that had to be set aside). */
  notices: string[];
};

type Turn = { abort: AbortController; running: Map<string, { tool: string; stop: AbortController }> };

/**
 * The interactive loop: one prompt at a time through the same conversation the headless runner
 * uses. Keys arrive through `key()` whatever the loop is doing: at the prompt they edit and
 * submit; during a turn they edit a line that Enter queues; during an approval they answer it.
 * `run()` resolves with the exit code once the user leaves.
 */
export function createRepl(deps: ReplDeps) {
  const { screen, theme } = deps;
  /** Set in run(), before any key can reach the gate or a turn. */
  let session!: ReplSession;
  const queue = createPromptQueue();
  let hint: string | undefined;
  let activity: string | undefined;
  /** The last lines of the reasoning streaming now, shown above the spinner. */
  let thinking: readonly string[] | undefined;
  let frame = 0;
  let spinner: ReturnType<typeof setInterval> | undefined;
  let turn: Turn | undefined;
  /** A slash command that talks to the model (/compact, /memory): esc, ctrl-c and exit stop it. */
  let command: AbortController | undefined;
  let waiting: ((text: string | null) => void) | undefined;
  let lastCtrlC = 0;
  let exiting = false;
  let exitCode = 0;

  const print = (text: string) => (screen.endLine(), screen.write(text + "\n"));
  const where = { root: deps.workspace.root, cwd: deps.workspace.cwd };
  const input = createInputBox({
    history: deps.history,
    complete: where,
    canPick: screen.mode === "rich",
    onNotice: (text) => print(theme.warn(text)),
  });
  const gate = createApprovalGate({
    permissions: (ask) => session.permissions(ask),
    where,
    theme,
    print,
    changed: () => {
      if (screen.mode === "pipe" && gate.pending()) print(gate.pending()!.question);
      render();
    },
  });
  const toolNamed = (name: string) => session.conversation().tools.find((t) => t.name === name);
  const view = createEventView(screen, theme, {
    activity: (text) => {
      activity = text;
      render();
    },
    announce: (tool) => !toolNamed(tool)?.mutates,
    runsCommand: (tool) => toolNamed(tool)?.subject.kind === "command",
    quietDenial: (id) => gate.answeredNo(id),
    reasoning: (lines) => {
      thinking = lines;
      render();
    },
  });

  function render(): void {
    if (exiting) return screen.setLive(undefined);
    const ask = gate.pending();
    if (ask) return screen.setLive({ above: [], prompt: ask.question, paintedPrompt: theme.warn(ask.question), text: ask.text ?? "", cursor: (ask.text ?? "").length, below: [] });
    const line = input.line();
    if (screen.mode === "plain" && !waiting && line.text === "") return screen.setLive(undefined);
    const above: string[] = [];
    if (turn && screen.mode === "rich") {
      // The reasoning streaming now: its last lines, dimmed, one row each (cut to the width).
      const width = screen.columns() - 4;
      for (const text of thinking ?? []) above.push(theme.dim(`  ${text.length > width ? text.slice(0, Math.max(width - 1, 1)) + "…" : text}`));
      above.push(theme.dim(`${SPINNER[frame % SPINNER.length]} ${activity ?? "working"} · esc to interrupt`));
      if (queue.size > 0) above.push(theme.dim(describeQueue(queue.items())));
    }
    const below = [...input.rows(theme), ...(hint ? [theme.dim(hint)] : [])];
    const painted = waiting ? theme.prompt(PROMPT) : theme.dim(PROMPT);
    screen.setLive({ above, prompt: PROMPT, paintedPrompt: painted, text: line.text, cursor: line.cursor, below });
  }

  async function runTurn(prompt: string): Promise<void> {
    const active: Turn = { abort: new AbortController(), running: new Map() };
    turn = active;
    activity = "working";
    if (screen.mode === "rich") spinner = setInterval(() => (frame++, render()), SPINNER_MS);
    render();
    const approve = gate.approver({
      signal: active.abort.signal,
      register: (id, tool) => {
        const stop = new AbortController();
        active.running.set(id, { tool, stop });
        return stop.signal;
      },
    });
    const emit = (event: AgentEvent) => {
      if (event.type === "tool-result" || event.type === "tool-error" || event.type === "tool-denied") active.running.delete(event.id);
      view.handle(event);
    };
    try {
      await session.conversation().runPrompt(prompt, { emit, approve, signal: active.abort.signal });
    } catch (error) {
      // runPrompt does not throw for provider or tool failures; anything else must not end the session.
      print(theme.error(`error: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      clearInterval(spinner);
      turn = undefined;
      activity = undefined;
      render();
    }
  }

  /** Typed or queued, a line goes through here: echoed, then run as a command or a prompt. */
  async function submit(text: string, queued: boolean): Promise<"exit" | undefined> {
    const [first, ...rest] = text.split("\n");
    if (queued) print("");
    print(theme.prompt(PROMPT) + theme.user([first, ...rest.map((l) => "  " + l)].join("\n")));
    const parsed = parseInput(text);
    if (parsed.type === "prompt") {
      const spend = session.beforeTurn();
      if (spend?.notice) print(theme.warn(spend.notice));
      if (spend?.refuse) return void print(theme.error(spend.refuse));
      return void (await runTurn(text));
    }
    if (parsed.type === "unknown") return void print(theme.warn(unknownCommandHint(parsed.name, parsed.closest)));
    command = new AbortController();
    try {
      return await runCommand(parsed.name, parsed.args, { signal: command.signal, session, theme, print, lastReasoning: view.lastReasoning });
    } catch (error) {
      print(theme.error(`/${parsed.name} failed: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      command = undefined;
    }
  }

  function readPrompt(): Promise<string | null> {
    screen.endLine();
    screen.write("\n" + statusLine(session.runtime(), session.conversation(), session.spent(), theme) + "\n");
    return new Promise((resolve) => {
      waiting = resolve;
      render();
    });
  }

  function interrupt(): void {
    if (command && !command.signal.aborted) {
      command.abort();
      return print(theme.warn("interrupted"));
    }
    if (!turn || turn.abort.signal.aborted) return;
    const dropped = queue.clear();
    turn.abort.abort();
    if (dropped > 0) print(theme.warn(`dropped ${dropped} queued ${dropped === 1 ? "prompt" : "prompts"}`));
  }

  function exit(): void {
    exiting = true;
    queue.clear();
    turn?.abort.abort();
    command?.abort();
    const resolve = waiting;
    waiting = undefined;
    resolve?.(null);
  }

  function enter(): void {
    const text = input.enter();
    if (text === undefined) return;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      return resolve(text);
    }
    queue.push(text);
    if (screen.mode !== "rich") print(theme.dim(describeQueue(queue.items())));
  }

  function ctrlC(): void {
    const now = Date.now();
    const running = turn ? [...turn.running.values()] : [];
    if (running.length > 0) {
      for (const call of running) call.stop.abort();
      return print(theme.warn(`  ^C stopping ${[...new Set(running.map((call) => call.tool))].join(", ")}; the turn goes on`));
    }
    if (input.line().text !== "") return input.clear();
    if (turn || command) return interrupt();
    if (now - lastCtrlC < CTRL_C_EXIT_WINDOW_MS) return exit();
    lastCtrlC = now;
    const remark = "press ctrl-c again to exit"; // under the input where there is room, else a line
    if (screen.mode === "rich") hint = remark;
    else print(theme.dim(remark));
  }

  function answer(key: Key): void {
    if (gate.typing()) {
      if (key.name === "ctrl-c") return interrupt();
      if (key.name === "ctrl-d") return exit();
      return gate.type(key);
    }
    const meaning = answerFor(key);
    if (meaning === "interrupt") interrupt();
    else if (meaning === "exit") exit();
    else if (meaning) gate.answer(meaning);
  }

  return {
    key(key: Key): void {
      if (exiting) return;
      if (gate.pending()) return answer(key);
      hint = undefined;
      if (key.name !== "ctrl-c") lastCtrlC = 0;
      switch (key.name) {
        case "enter":
          enter();
          break;
        case "tab": {
          const candidates = input.tab();
          if (candidates) print(theme.dim(candidates.join("  ")));
          break;
        }
        case "escape":
          if (!input.closePicker()) interrupt();
          break;
        case "ctrl-c":
          ctrlC();
          break;
        case "ctrl-d":
          if (input.line().text === "") exit();
          else input.edit({ name: "delete" });
          break;
        case "ctrl-l":
          screen.clear();
          break;
        case "up":
        case "down":
          input.arrow(key.name);
          break;
        default:
          input.edit(key);
      }
      render();
    },
    /** The terminal changed size. */
    redraw(): void {
      screen.setLive(undefined);
      render();
    },
    /** SIGTERM/SIGHUP: leave as if ctrl-d was pressed (the turn is aborted, its commands killed), exit code 130. */
    terminate(): void {
      exitCode = 130;
      exit();
    },
    /** A SIGINT from outside the terminal counts as ctrl-c. */
    interruptKey(): void {
      this.key({ name: "ctrl-c" });
    },
    async run(): Promise<number> {
      session = await deps.openSession((todos) => print(theme.dim(renderTodos(todos) || "tasks: (cleared)")));
      const notices = [...deps.notices, ...session.startNotices];
      print(headerLines({ version: deps.version, runtime: session.runtime(), home: deps.home, sessionLabel: session.label(), yolo: deps.yolo, theme }).join("\n"));
      for (const notice of notices) print(theme.warn(notice));
      // `shiro "fix the bug in page.ts"`: the prompt from the command line goes first, like a typed one.
      if (deps.initialPrompt) {
        const notice = deps.history.add(deps.initialPrompt);
        if (notice) print(theme.warn(notice));
        queue.push(deps.initialPrompt);
      }
      for (;;) {
        const queued = exiting ? undefined : queue.shift();
        const text = exiting ? null : (queued ?? (await readPrompt()));
        if (text === null || (await submit(text, queued !== undefined)) === "exit" || exiting) break;
      }
      exiting = true;
      queue.clear();
      render();
      let message: string;
      try {
        message = session.exitMessage();
      } catch (error) {
        print(theme.error(`could not build the exit message: ${error instanceof Error ? error.message : String(error)}`));
        message = "Good bye.\n";
      }
      screen.endLine();
      screen.write(message);
      return exitCode;
    },
  };
}
