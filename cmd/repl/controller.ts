import type { ModelMessage } from "ai";
import type { AgentEvent } from "../../lib/events.ts";
import type { HistoryStore } from "../../lib/prompt/history.ts";
import { renderTodo, renderTodos } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { pruneForWire } from "../../lib/prune/prune.ts";
import { closeDanglingToolCalls } from "../../lib/prune/repair.ts";
import { createPromptQueue, describeQueue } from "../../lib/prompt/queue.ts";
import { parseInput, unknownCommandHint } from "../../lib/prompt/slash-commands.ts";
import { attachMentions, describeAttachment, withoutAttachments } from "../../lib/prompt/attach.ts";
import { expandCommand, type CustomCommand } from "../../lib/prompt/custom-commands.ts";
import { sanitize } from "../../lib/render.ts";
import { fitRow, wrapHanging, wrapText } from "../../lib/text/wrap.ts";
import { describeTurnChanges } from "../../lib/sessions/undo/report.ts";
import { answerFor, createApprovalGate } from "./approval-gate.ts";
import { runCommand } from "./commands.ts";
import { createEventView, type RowKind } from "./event-view.ts";
import { conversationBudget, headerLines, statusLine, type ContextMeasure } from "./header.ts";
import { createInputBox } from "./input/input-box.ts";
import type { Key } from "./input/keys.ts";
import { openSearch, searchKey, searchView } from "./input/reverse-search.ts";
import type { HistorySearch } from "../../lib/prompt/history-search.ts";
import type { Screen } from "./input/screen.ts";
import type { ReplSession, SessionOption } from "./session.ts";
import type { Theme } from "./theme.ts";
import { chooseKey, choiceRows, openChoice, type ChoiceRequest, type Choosing } from "./picker.ts";
import { PROMPT, promptRows, REPLAY_END, replayRows } from "./replay.ts";

/** Lines of a `!cmd`'s output shown as it runs; the model gets all of it (within the tool's limit). */
const SHELL_LIVE_LINES = 40;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_MS = 120;
/** A slash command still running after this long gets the spinner (most answer at once). */
const COMMAND_SPINNER_AFTER_MS = 300;
/** What a bare `!` gets instead of going to the model. */
const SHELL_HINT = "!cmd runs cmd in the workspace; its output goes with your next prompt";
/** A second ctrl-c on an empty prompt within this long exits. */
const CTRL_C_EXIT_WINDOW_MS = 2_000;
/** Tasks named in the live panel under its progress line. */
const PANEL_ITEMS = 3;

export type ReplDeps = {
  /** Opens the session (its first conversation) once the loop's printer exists. */
  openSession(hooks: { onTodos(todos: readonly Todo[]): void; pickSession(options: readonly SessionOption[]): Promise<string | undefined> }): Promise<ReplSession>;
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
  /** Shows text through the user's $PAGER, the terminal handed over until it exits; absent when none is set. */
  pager?: (text: string) => Promise<void>;
  /** Rings the terminal bell (an approval question is waiting); config `"bell": false` keeps it quiet. */
  bell?: () => void;
  /** The user's and the project's own slash commands (lib/prompt/custom-commands.ts). */
  customCommands?: readonly CustomCommand[];
};

type Turn = { abort: AbortController; running: Map<string, { tool: string; stop: AbortController }> };

/**
 * The interactive loop: one prompt at a time through the same conversation the headless runner
 * uses. Keys arrive through `key()` whatever the loop is doing: at the prompt they edit and
 * submit; during a turn they edit a line that Enter queues; during an approval they answer it;
 * while the session picker is open they choose. `run()` resolves with the exit code once the
 * user leaves. What stays is written to the transcript, wrapped to the width at the time; the
 * live area under it (the answer's line in progress, running output, the task panel, the
 * spinner, the input and the status line) is redrawn.
 */
export function createRepl(deps: ReplDeps) {
  const { screen, theme } = deps;
  /** Set in run(), before any key can reach the gate or a turn. */
  let session!: ReplSession;
  const queue = createPromptQueue();
  let hint: string | undefined;
  let activity: string | undefined;
  let activitySince = 0;
  let todos: readonly Todo[] = [];
  let frame = 0;
  let spinner: ReturnType<typeof setInterval> | undefined;
  let turn: Turn | undefined;
  let choosing: Choosing | undefined;
  /** ctrl-r's search line, while open: it takes the input row; the input stays as it was under it. */
  let searching: HistorySearch | undefined;
  /** $PAGER has the terminal: nothing is drawn until it exits. */
  let paging = false;
  /** A slash command that talks to the model (/compact, /memory): esc, ctrl-c and exit stop it. */
  let command: AbortController | undefined;
  let waiting: ((text: string | null) => void) | undefined;
  /** A one-key question from a slash command (/undo's overwrite, /diff's pager): the next key answers it. */
  let question: { text: string; answer: (key: string) => void } | undefined;
  let lastCtrlC = 0;
  let exiting = false;
  let exitCode = 0;
  /** How prompts were shown in the input (a collapsed paste), by the text they send. */
  const shownAs = new Map<string, string>();
  /** The last request a turn sent, for the context meter; valid while the history is the one it ended with. */
  let measured: { history: readonly ModelMessage[]; wire: number; tokens?: number } | undefined;
  let estimated: { history: readonly ModelMessage[]; threshold: number; value: ContextMeasure } | undefined;
  /** What the transcript ends with: to put a blank line between the answer and the lines around it. */
  let lastKind: RowKind | "prompt" | "other" | undefined;
  let lastBlank = true;
  /** A turn has ended since the status line was last written to the transcript (plain and pipe screens only). */
  let statusDue = true;

  const columns = () => screen.columns();
  /** Writes finished rows to the transcript, with a blank line where the answer meets other lines. */
  const put = (rows: readonly string[], kind: RowKind | "prompt" | "other") => {
    if (rows.length === 0) return;
    const switched = kind === "prompt" || (lastKind !== "prompt" && (kind === "text") !== (lastKind === "text"));
    const blank = lastKind !== undefined && !lastBlank && rows[0] !== "" && switched;
    render(); // the live area first, so rows just taken out of it (a finished line) are not drawn twice
    screen.endLine();
    screen.write((blank ? "\n" : "") + rows.join("\n") + "\n");
    lastKind = kind;
    lastBlank = rows.at(-1) === "";
  };
  const print = (text: string) => put(wrapText(text, columns()), "other");
  const where = { root: deps.workspace.root, cwd: deps.workspace.cwd };
  const custom = deps.customCommands ?? [];
  const input = createInputBox({
    history: deps.history,
    complete: { ...where, choices: (command) => (command === "model" && session ? session.knownModels() : []), commands: custom.map((command) => command.name) },
    canPick: screen.mode === "rich",
    onNotice: (text) => print(theme.warn(text)),
  });
  const gate = createApprovalGate({
    permissions: (ask) => session.permissions(ask),
    where,
    theme,
    print: (text) => put(wrapText(text, columns(), { hang: 2 }), "tool"), // a wrapped command or diff line stays under its own
    changed: () => {
      if (screen.mode === "pipe" && gate.pending()) print(gate.pending()!.question);
      render();
    },
    bell: () => {
      if (session.runtime().settings.bell) deps.bell?.();
    },
    rules: { target: (grant, scope) => session.ruleTarget(grant, scope), save: (grant, scope) => session.saveRule(grant, scope) },
  });
  const toolNamed = (name: string) => session.conversation().tools.find((t) => t.name === name);
  const view = createEventView(theme, {
    write: put,
    columns,
    activity: (text) => {
      if (text !== activity) activitySince = Date.now();
      activity = text;
      render();
    },
    announce: (tool) => !toolNamed(tool)?.mutates,
    runsCommand: (tool) => toolNamed(tool)?.subject.kind === "command",
    quietDenial: (id) => gate.answeredNo(id),
    changed: () => render(),
  });

  /** The context meter: the last request a turn sent, or what the history would send now. */
  function contextMeasure(threshold: number): ContextMeasure {
    const conversation = session.conversation();
    const history = conversation.history;
    if (measured?.history === history) {
      return { wireTokens: measured.wire, contextTokens: measured.tokens ? { count: measured.tokens, estimated: false } : { count: measured.wire, estimated: true } };
    }
    if (history.length === 0) return { wireTokens: 0, contextTokens: { count: 0, estimated: true } };
    if (estimated?.history !== history || estimated.threshold !== threshold) {
      const { report } = pruneForWire(closeDanglingToolCalls(history), { pruneAtTokens: threshold, tools: conversation.tools });
      estimated = { history, threshold, value: { wireTokens: report.tokensAfter, contextTokens: { count: report.tokensAfter, estimated: true } } };
    }
    return estimated.value;
  }
  /** The status line; the budget is computed once for both the meter and its percentage (every redraw while waiting). */
  const status = () => {
    const runtime = session.runtime();
    const budget = conversationBudget(runtime, session.conversation());
    return statusLine(runtime, contextMeasure(budget), budget, session.spent(), theme, deps.yolo ? undefined : session.mode().label);
  };

  /** The task list while a turn runs: its progress line and the task(s) in hand. */
  function taskPanel(): string[] {
    if (todos.length === 0) return [];
    const current = todos.filter((t) => t.status === "in_progress");
    const next = current.length > 0 ? current : todos.filter((t) => t.status === "pending").slice(0, 1);
    const width = columns() - 1;
    return [renderTodos(todos).split("\n")[0]!, ...next.slice(0, PANEL_ITEMS).map((t) => "  " + renderTodo(t))].map((row) => theme.dim(fitRow(row, width)));
  }

  function spinnerRow(): string {
    const [what, ...more] = (activity ?? "working").split(" · ");
    const seconds = Math.floor((Date.now() - activitySince) / 1000);
    return [`${SPINNER[frame % SPINNER.length]} ${what}`, ...(seconds >= 1 ? [`${seconds}s`] : []), ...more, "esc to interrupt"].join(" · ");
  }

  function render(): void {
    if (paging) return; // the pager has the terminal
    if (exiting) return screen.setLive(undefined);
    if (choosing) return screen.setLive({ above: [theme.bold(choosing.title)], prompt: "", text: "", cursor: 0, below: choiceRows(choosing, theme, columns() - 1) });
    const ask = gate.pending() ?? (question ? { question: question.text } : undefined);
    if (ask) {
      // The question wrapped, its further rows indented under it; the cursor waits at its end.
      const rows = wrapHanging("", "  ", ask.question, columns() - 1);
      const lastRow = rows.at(-1)!;
      const typed = "text" in ask ? (ask.text ?? "") : "";
      return screen.setLive({ above: rows.slice(0, -1).map(theme.warn), prompt: lastRow, paintedPrompt: theme.warn(lastRow), text: typed, cursor: typed.length, below: [] });
    }
    const line = input.line();
    if (screen.mode === "plain" && !waiting && line.text === "") return screen.setLive(undefined);
    const above: string[] = [];
    if (turn && screen.mode === "rich") {
      above.push(...view.liveRows(), ...taskPanel(), theme.dim(spinnerRow()));
      if (queue.size > 0) above.push(theme.dim(describeQueue(queue.items())));
    } else if (command && screen.mode === "rich" && Date.now() - activitySince >= COMMAND_SPINNER_AFTER_MS) {
      above.push(theme.dim(spinnerRow())); // a command that asks the model (/compact, /memory)
      if (queue.size > 0) above.push(theme.dim(describeQueue(queue.items())));
    }
    const below = [...input.rows(theme), ...(hint ? [theme.dim(hint)] : [])];
    if (waiting && screen.mode === "rich") below.push(status());
    if (searching) {
      const shown = searchView(searching, line.text);
      return screen.setLive({ above, prompt: shown.prompt, paintedPrompt: theme.dim(shown.prompt), text: shown.text, cursor: shown.cursor, below });
    }
    const painted = waiting ? theme.prompt(PROMPT) : theme.dim(PROMPT);
    screen.setLive({ above, prompt: PROMPT, paintedPrompt: painted, text: line.text, cursor: line.cursor, below });
  }

  /** Opens a choice list (the session picker, the model picker); resolves with the chosen id, or undefined for esc. */
  function pick(request: ChoiceRequest): Promise<string | undefined> {
    if (request.options.length === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      choosing = openChoice(request, resolve);
      render();
    });
  }

  /** The session picker (`shiro -r`, `/resume`). */
  function pickSession(options: readonly SessionOption[]): Promise<string | undefined> {
    return pick({ title: "Resume which session? (this directory, newest first)", options, hint: "up/down choose · enter resumes · esc starts a new session" });
  }

  function choose(key: Key): void {
    const c = choosing!;
    const outcome = chooseKey(c, key);
    if (outcome.done) {
      choosing = undefined;
      c.resolve(outcome.id);
      if (outcome.exit) exit();
    }
    render();
  }

  /** The conversation so far, condensed, before the prompt of a resumed session (replay.ts). */
  function replay(): void {
    for (const { rows, kind } of replayRows(session.replayItems(), theme, columns())) put(rows, kind);
  }

  /** The prompt as sent, in the transcript. */
  function echo(text: string): void {
    const { rows, kind } = promptRows(text, theme, columns());
    put(rows, kind);
  }

  /** `typed`: the command line the user typed, when a command wrote the prompt (/init, a custom command). */
  async function runTurn(prompt: string, typed?: string): Promise<void> {
    const active: Turn = { abort: new AbortController(), running: new Map() };
    turn = active;
    activity = "working";
    activitySince = Date.now();
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
    let lastStep: { wire: number; tokens?: number } | undefined;
    const emit = (event: AgentEvent) => {
      if (event.type === "tool-result" || event.type === "tool-error" || event.type === "tool-denied") active.running.delete(event.id);
      // A subagent's calls report to it, not here: when it ends, so have they.
      if (event.type === "subagent-end") for (const id of active.running.keys()) if (id.startsWith(`${event.id}/${event.index}/`)) active.running.delete(id);
      if (event.type === "step") {
        const tokens = event.usage.inputTokens + event.usage.outputTokens;
        lastStep = { wire: event.wireTokens ?? 0, ...(tokens > 0 ? { tokens } : {}) };
      }
      view.handle(event);
    };
    try {
      const sent = session.withShellContext(prompt);
      // What the user typed, for /undo and the replay: the command line, or (when `!cmd` output went
      // first) the prompt without it; undefined for a plain prompt, which is sent as typed.
      const shell = sent.shell.map((c) => `!${c}`);
      const asTyped = typed ?? (shell.length > 0 ? withoutAttachments(prompt) : undefined);
      const shown = { ...(asTyped !== undefined ? { prompt: asTyped } : {}), ...(shell.length > 0 ? { shell } : {}) };
      const result = await session.conversation().runPrompt(sent.prompt, { emit, approve, signal: active.abort.signal, typed: shown });
      if (lastStep) measured = { history: session.conversation().history, ...lastStep };
      const changes = describeTurnChanges(result.changes, "/undo");
      if (changes) print(theme.dim(changes));
    } catch (error) {
      // runPrompt does not throw for provider or tool failures; anything else must not end the session.
      print(theme.error(`error: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      clearInterval(spinner);
      turn = undefined;
      activity = undefined;
      statusDue = true;
      render();
    }
  }

  /** `!cmd`: the user's own command, run in the workspace; its output goes with the next prompt. */
  async function shell(commandLine: string): Promise<void> {
    command = new AbortController();
    activity = `running ${commandLine}`;
    render();
    let shown = 0;
    try {
      const ran = await session.runShell(commandLine, command.signal, (chunk) => {
        for (const line of chunk.split("\n")) if (line && shown++ < SHELL_LIVE_LINES) print(theme.dim(`    ${sanitize(line)}`));
      });
      if (ran.refused) return print(theme.error(ran.refused));
      if (shown > SHELL_LIVE_LINES) print(theme.dim(`    … ${shown - SHELL_LIVE_LINES} more lines (the model gets the output with your next prompt)`));
      else print(theme.dim("  (the output goes with your next prompt)"));
    } finally {
      command = undefined;
      activity = undefined;
      render();
    }
  }

  /** The prompt with its `@path` files attached (lib/prompt/attach.ts); a line on screen for each. */
  function attach(prompt: string): string {
    const { text, reports } = attachMentions(prompt, where);
    for (const report of reports) print((report.kind === "refused" ? theme.warn : theme.dim)(`  ${describeAttachment(report)}`));
    return text;
  }

  /** A prompt's turn, unless the spend limit refuses it. */
  async function sendPrompt(prompt: string, typed?: string): Promise<undefined> {
    const spend = session.beforeTurn();
    if (spend?.notice) print(theme.warn(spend.notice));
    if (spend?.refuse) return void print(theme.error(spend.refuse));
    await runTurn(prompt, typed);
  }

  /** Typed or queued, a line goes through here: echoed, then run as a command or a prompt. */
  async function submit(text: string): Promise<"exit" | undefined> {
    const shown = shownAs.get(text) ?? text;
    shownAs.delete(text);
    echo(shown);
    if (/^!\S/.test(text)) return void (await shell(text.slice(1).trim()));
    if (text.trim() === "!") return void print(theme.dim(SHELL_HINT));
    const parsed = parseInput(text, custom);
    if (parsed.type === "prompt") return sendPrompt(attach(text));
    if (parsed.type === "custom") {
      const { command } = parsed;
      const ranWith = [command.agent && `agent ${command.agent}`, command.model && `model ${command.model}`].filter(Boolean).join(", ");
      print(theme.dim(`  /${command.name} from ${command.source}${ranWith ? ` (this turn: ${ranWith})` : ""}`));
      try {
        return void (await session.forOneTurn(command, () => sendPrompt(attach(expandCommand(command, parsed.args)), text)));
      } catch (error) {
        return void print(theme.error(`/${command.name}: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
    if (parsed.type === "unknown") return void print(theme.warn(unknownCommandHint(parsed.name, parsed.closest)));
    command = new AbortController();
    activity = `/${parsed.name}`;
    activitySince = Date.now();
    if (screen.mode === "rich") spinner = setInterval(() => (frame++, render()), SPINNER_MS);
    let send: string | undefined;
    try {
      const outcome = await runCommand(parsed.name, parsed.args, {
        signal: command.signal,
        session,
        theme,
        print,
        lastReasoning: view.lastReasoning,
        lastResult: view.lastResult,
        page: async (text) => {
          if (!deps.pager) return print(text);
          paging = true;
          screen.setLive(undefined);
          try {
            await deps.pager(text);
          } finally {
            paging = false;
            render();
          }
        },
        pickSession,
        pick: screen.mode === "rich" ? pick : undefined,
        replay: () => {
          replay();
          print(theme.dim(`${REPLAY_END} ${session.label() ?? ""} · ${session.conversation().history.length} messages ──`));
        },
        ask: askKey,
        setInput: (text) => input.set(text),
        rows: () => (screen.mode === "pipe" ? undefined : (screen.rows?.() ?? 24)),
        send: (prompt) => (send = prompt),
        custom,
      });
      if (outcome === "exit") return "exit";
    } catch (error) {
      print(theme.error(`/${parsed.name} failed: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      clearInterval(spinner);
      command = undefined;
      activity = undefined;
    }
    if (send !== undefined) return sendPrompt(send, text); // a command that is a turn (/init), run as one
  }

  /** Puts a command's question on screen; the next key resolves it (esc, ctrl-c and leaving answer "escape"). */
  function askKey(text: string): Promise<string> {
    return new Promise((resolve) => {
      question = {
        text,
        answer: (key) => {
          question = undefined;
          resolve(key);
        },
      };
      if (screen.mode === "pipe") print(text);
      render();
    });
  }

  function readPrompt(): Promise<string | null> {
    // The status line lives under the input; a screen that cannot redraw gets it written once per turn.
    if (screen.mode !== "rich" && statusDue) put(["", status()], "other");
    statusDue = false;
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
    question?.answer("escape");
    queue.clear();
    turn?.abort.abort();
    command?.abort();
    const resolve = waiting;
    waiting = undefined;
    resolve?.(null);
  }

  function enter(): void {
    const entered = input.enter();
    if (entered === undefined) return;
    const { text, shown } = entered;
    if (shown !== text) shownAs.set(text, shown);
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
    if (gate.choosingScope()) {
      if (key.name === "ctrl-d") return exit();
      return gate.keep(key);
    }
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
      if (choosing) return choose(key);
      if (gate.pending()) return answer(key);
      if (question) {
        if (key.name === "ctrl-d") return exit();
        question.answer(key.name === "text" ? key.text.toLowerCase() : key.name === "ctrl-c" ? "escape" : key.name);
        return render();
      }
      hint = undefined;
      if (searching) {
        const step = searchKey(searching, key);
        searching = step.type === "searching" ? step.search : undefined;
        if (step.type === "accept") input.set(step.text);
        return render();
      }
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
        case "ctrl-r":
          input.closePicker();
          searching = openSearch(deps.history.entries());
          break;
        case "shift-tab":
          if (deps.yolo) print(theme.dim("--yolo: edits and commands run without asking; the mode does not apply"));
          else print(theme.dim(session.cycleMode()));
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
    /** The terminal changed size: the live area is drawn again; new transcript lines wrap to the new width. */
    redraw(): void {
      screen.setLive(undefined);
      render();
    },
    /** SIGTERM/SIGHUP: leave as if ctrl-d was pressed (the turn is aborted, its commands killed), exit code 130. */
    terminate(): void {
      exitCode = 130;
      choosing?.resolve(undefined);
      choosing = undefined;
      exit();
    },
    /** A SIGINT from outside the terminal counts as ctrl-c. */
    interruptKey(): void {
      this.key({ name: "ctrl-c" });
    },
    async run(): Promise<number> {
      session = await deps.openSession({
        onTodos: (next) => {
          todos = next;
          // The panel shows the list live; a screen without a live area gets it written.
          if (screen.mode !== "rich") print(theme.dim(renderTodos(next) || "tasks: (cleared)"));
          render();
        },
        pickSession,
      });
      todos = session.conversation().notebook.todos();
      const notices = [...deps.notices, ...session.startNotices];
      print(headerLines({ version: deps.version, runtime: session.runtime(), home: deps.home, sessionLabel: session.label(), yolo: deps.yolo, mode: session.mode().mode, theme }).join("\n"));
      for (const notice of notices) print(theme.warn(notice));
      const mcp = session.runtime().mcp;
      if (mcp) {
        print(theme.dim(`MCP: starting ${mcp.names.join(", ")} in the background; /mcp shows them.`));
        mcp.onNotice((notice) => print(theme.warn(notice)));
      }
      if (session.conversation().history.length > 0) {
        replay();
        print(theme.dim(`${REPLAY_END} ${session.label() ?? ""} · ${session.conversation().history.length} messages ──`));
      }
      // `shiro "fix the bug in page.ts"`: the prompt from the command line goes first, like a typed one.
      if (deps.initialPrompt) {
        const notice = deps.history.add(deps.initialPrompt);
        if (notice) print(theme.warn(notice));
        queue.push(deps.initialPrompt);
      }
      for (;;) {
        const queued = exiting ? undefined : queue.shift();
        const text = exiting ? null : (queued ?? (await readPrompt()));
        if (text === null || (await submit(text)) === "exit" || exiting) break;
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
      screen.write((lastBlank ? "" : "\n") + message);
      return exitCode;
    },
  };
}
