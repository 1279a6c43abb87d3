import type { HistoryStore } from "../../lib/prompt/history.ts";
import { createPromptQueue, describeQueue } from "../../lib/prompt/queue.ts";
import { notLoadedHint, parseInput, unknownCommandHint } from "../../lib/prompt/slash-commands.ts";
import { expandCommand, type CustomCommand, type RejectedCommand } from "../../lib/prompt/custom-commands.ts";
import { createTypeAheadGuard } from "../../lib/prompt/type-ahead.ts";
import { EXIT_CODES } from "../../lib/errors.ts";
import { fitRow, wrapText } from "../../lib/text/wrap.ts";
import { createApprovalGate } from "./approval-gate.ts";
import { pageThrough, reviewAtExit, runSlash } from "./slash-run.ts";
import { createContextMeter } from "./context-meter.ts";
import { createEventView, type RowKind } from "./event-view.ts";
import { headerLines, statusLine } from "./header.ts";
import { createInputBox } from "./input/input-box.ts";
import type { Key } from "./input/keys.ts";
import { searchView } from "./input/reverse-search.ts";
import type { Screen } from "./input/screen.ts";
import { createKeyDispatch } from "./key-dispatch.ts";
import { spinnerRow } from "./live-panel.ts";
import { askOneKey, createLoopState } from "./loop-state.ts";
import { createPaging } from "./transcript-view.ts";
import type { ReplSession, ReplSessionHooks, SessionOption } from "./session.ts";
import type { Theme } from "./theme.ts";
import { choiceRows, openChoice, type ChoiceRequest } from "./picker.ts";
import { PROMPT, promptRows, REPLAY_END, replayRows } from "./replay.ts";
import { questionView } from "./question-view.ts";
import { createLoopElicitor, questionOnScreen } from "./elicit-view.ts";
import { createLoopAttacher, createLoopMcpPrompts, withMcpCompletion } from "./mcp-input.ts";
import { createTurnRunner } from "./turn-runner.ts";
import { createPlanHandoff } from "./plan-handoff.ts";
import { createNotifications, type Alerts } from "./notifications.ts";
import { createTaskListView } from "./task-list-view.ts";
import { runUserCommand } from "./shell-command.ts";
import { goalStatus } from "../../lib/app/goal-run.ts";

/** A slash command still running after this long gets the spinner (most answer at once). */
const COMMAND_SPINNER_AFTER_MS = 300;
/** What a bare `!` gets instead of going to the model. */
const SHELL_HINT = "!cmd runs cmd in the workspace; its output goes with your next prompt";

export type ReplDeps = {
  /** Opens the session (its first conversation) once the loop's printer exists. */
  openSession(hooks: ReplSessionHooks): Promise<ReplSession>;
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
  /** How long the keyboard must be quiet before a key answers an approval question (default ANSWER_QUIET_MS; tests set 0). */
  answerQuietMs?: number;
  notifyDelays?: { questionMs: number; idleMs: number }; // when Notification hooks fire (notifications.ts); only tests change it
  alerts?: Alerts; // what a terminal without focus is told when a turn ends or a question waits (desktop-notify.ts)
  /** The user's and the project's own slash commands (lib/prompt/custom-commands.ts). */
  customCommands?: readonly CustomCommand[];
  /** Their files that were not used: typing one of those names says why (not "unknown command"). */
  rejectedCommands?: readonly RejectedCommand[];
};

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
  const state = createLoopState();
  /** How prompts were shown in the input (a collapsed paste), by the text they send. */
  const shownAs = new Map<string, string>();
  const meter = createContextMeter(() => session);
  /** What the transcript ends with: to put a blank line between the answer and the lines around it. */
  let lastKind: RowKind | "prompt" | "other" | undefined;
  let lastBlank = true;

  const columns = () => screen.columns();
  /** Writes finished rows to the transcript, with a blank line where the answer meets other lines. */
  const put = (rows: readonly string[], kind: RowKind | "prompt" | "other") => {
    if (rows.length === 0) return;
    if (state.paging) return void state.held.push({ rows: [...rows], kind }); // written once the pager closes
    const switched = kind === "prompt" || (lastKind !== "prompt" && (kind === "text") !== (lastKind === "text"));
    const blank = lastKind !== undefined && !lastBlank && rows[0] !== "" && switched;
    // The live area first, so rows just taken out of it (a finished line) are not drawn twice; not
    // before the first rows (the header), or the prompt drawn and erased at the top would be left
    // in the terminal's scrollback.
    if (lastKind !== undefined) render();
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
    complete: withMcpCompletion({ ...where, choices: (command) => (command === "model" && session ? session.knownModels() : []), commands: custom.map((command) => command.name), descriptions: Object.fromEntries(custom.map((command) => [command.name, command.description])) }, () => session?.runtime().mcp),
    canPick: screen.mode === "rich",
    onNotice: (text) => print(theme.warn(text)),
  });
  const notifications = createNotifications((type, message) => session?.notify(type, message), deps.notifyDelays, deps.alerts, () => session?.id());
  const typeAhead = createTypeAheadGuard(deps.answerQuietMs === undefined ? {} : { quietMs: deps.answerQuietMs });
  const gate = createApprovalGate({
    permissions: (ask) => session.permissions(ask),
    where,
    theme,
    print: (text) => put(wrapText(text, columns(), { hang: 2 }), "tool"), // a wrapped command or diff line stays under its own
    changed: () => {
      if (screen.mode === "pipe" && gate.pending()) print(gate.pending()!.question);
      render();
    },
    bell: () => void (session.runtime().settings.bell && deps.bell?.()),
    opened: (asked) => (typeAhead.questionShown(), notifications.questionOpened(`to run ${asked.tool.name}${asked.subject ? `: ${asked.subject}` : ""}`)),
    // The spinner counts the call's run, not its question's wait (subagents go on while one asks).
    closed: () => (notifications.questionClosed(), view.subagentRows().length === 0 && (state.activitySince = Date.now())),
    draft: (text) => {
      const typed = input.line().text;
      input.set(typed ? `${typed}\n${text}` : text); // after anything typed ahead, on a line of its own
    },
    rules: { target: (grant, scope) => session.ruleTarget(grant, scope), save: (grant, scope) => session.saveRule(grant, scope) },
  });
  const toolNamed = (name: string) => session.conversation().tools.find((t) => t.name === name);
  const view = createEventView(theme, {
    write: put,
    columns,
    activity: (text, until) => {
      // The clock restarts when the activity changes, not when its details do (thinking's token count grows as it thinks).
      const what = (activity: string | undefined) => activity?.split(" · ")[0];
      if (what(text) !== what(state.activity)) state.activitySince = Date.now();
      state.activity = text;
      state.activityUntil = until;
      render();
    },
    announce: (tool) => !toolNamed(tool)?.mutates,
    subjectKind: (tool) => toolNamed(tool)?.subject.kind,
    quietDenial: (id) => gate.answeredNo(id),
    changed: () => render(),
  });

  const tasks = createTaskListView({ rich: screen.mode === "rich", theme, columns, print, turnRunning: () => state.turn !== undefined });
  const plan = createPlanHandoff({ state, session: () => session, theme, rich: screen.mode === "rich", typeAhead, shownAs, print }); // plan mode's offer of a finished plan
  const runner = createTurnRunner({ state, session: () => session, gate, view, queue, theme, rich: screen.mode === "rich", render, print, started: notifications.promptSent, ended: () => (tasks.turnEnded(), notifications.turnEnded()), plan });
  const paging = createPaging({ state, screen, ...(deps.pager ? { pager: deps.pager } : {}), session: () => session, print, render }); // ctrl-o, d, /transcript, /last
  const dispatch = createKeyDispatch({ state, session: () => session, input, gate, typeAhead, queue, runner, screen, theme, history: deps.history, yolo: deps.yolo, shownAs, print, render, exit, details: (lines) => void paging.details(lines), transcript: () => void paging.transcript(), plan });

  /** The status line: drawn at every redraw while the prompt waits (the meter caches what is costly). */
  const status = () => statusLine(session.runtime(), meter.measure(), session.spent(), theme, session.mode().label, columns() - 1, deps.yolo, goalStatus(session.conversation().goal()));

  function render(): void {
    if (state.paging) return; // the pager has the terminal
    for (const { rows, kind } of state.held.splice(0)) put(rows, kind as RowKind); // what came while it had
    if (state.exiting) return screen.setLive(undefined);
    if (state.choosing) return screen.setLive({ above: [theme.bold(state.choosing.title)], prompt: "", text: "", cursor: 0, below: choiceRows(state.choosing, theme, columns() - 1) });
    const ask = gate.pending() ?? (state.question ? questionOnScreen(state.question) : undefined);
    const hint = state.hint ? [theme.dim(state.hint)] : [];
    if (ask) {
      // A subagent waiting on the question keeps its live line, so the user sees which one asks.
      const live = gate.pending() ? view.subagentRows(gate.asking()) : [];
      return screen.setLive(questionView(ask, { gate, input, typeAhead, queue, theme, rich: screen.mode === "rich", width: columns() - 1, hint, live }));
    }
    const line = input.line();
    if (screen.mode === "plain" && !state.waiting && line.text === "") return screen.setLive(undefined);
    const above: string[] = [];
    // Before the session is open (the -r picker) there is none to ask.
    const jobs = screen.mode === "rich" && session ? session.runningJobsLine() : undefined;
    if (jobs) above.push(theme.dim(fitRow(jobs, columns() - 1)));
    if (state.turn && screen.mode === "rich") {
      above.push(...view.liveRows(), ...tasks.panel(), theme.dim(spinnerRow(state)));
      if (queue.size > 0) above.push(theme.dim(describeQueue(queue.items())));
    } else if (state.command && screen.mode === "rich" && Date.now() - state.activitySince >= COMMAND_SPINNER_AFTER_MS) {
      above.push(...(state.output ?? []), theme.dim(spinnerRow(state))); // a command that asks the model (/compact, /memory)
      if (queue.size > 0) above.push(theme.dim(describeQueue(queue.items())));
    }
    const below = [...input.rows(theme, columns() - 1), ...hint, ...plan.rows(columns() - 1)];
    if (state.waiting && screen.mode === "rich") below.push(status());
    if (state.searching) {
      const shown = searchView(state.searching, line.text);
      return screen.setLive({ above, prompt: shown.prompt, paintedPrompt: theme.dim(shown.prompt), text: shown.text, cursor: shown.cursor, below });
    }
    const painted = state.waiting ? theme.prompt(PROMPT) : theme.dim(PROMPT);
    screen.setLive({ above, prompt: PROMPT, paintedPrompt: painted, text: line.text, cursor: line.cursor, below });
  }

  /** Opens a choice list (the session picker, the model picker); resolves with the chosen id, or undefined for esc. */
  function pick(request: ChoiceRequest): Promise<string | undefined> {
    if (request.options.length === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      state.choosing = openChoice(request, resolve);
      render();
    });
  }

  /** The session picker: at start (`shiro -r`) esc starts a new session; in `/resume` it keeps the one open. */
  function pickSession(options: readonly SessionOption[], esc = "starts a new session"): Promise<string | undefined> {
    return pick({ title: "Resume which session? (this directory, newest first)", options, hint: `up/down choose · enter resumes · esc ${esc}` });
  }

  /** The conversation so far, condensed, before the prompt of a resumed session (replay.ts), and the line that ends it. */
  function replay(): void {
    for (const { rows, kind } of replayRows(session.replayItems(), theme, columns(), session.subjectKind)) put(rows, kind);
    print(theme.dim(`${REPLAY_END} ${session.label() ?? ""} · ${session.conversation().history.length} messages ──`));
  }

  /** The prompt as sent, in the transcript. */
  function echo(text: string): void {
    const { rows, kind } = promptRows(text, theme, columns());
    put(rows, kind);
  }

  /** `!cmd`: the user's own command (shell-command.ts). */
  const shell = (commandLine: string) => runUserCommand({ state, session, theme, print, render, columns, rich: screen.mode === "rich" }, commandLine);

  const mcpDeps = { state, rich: screen.mode === "rich", render, print, theme, where, mcp: () => session.runtime().mcp, images: () => session.runtime() };
  /** The prompt with its `@path` files (and images) and `@server:uri` resources attached; a line on screen for each (mcp-input.ts). */
  const attach = createLoopAttacher(mcpDeps);
  const mcpPrompt = createLoopMcpPrompts({ ...mcpDeps, send: (prompt, typed) => runner.sendPrompt(prompt, typed), named: (text) => session.nameIfUntitled(text) });

  /** Typed or queued, a line goes through here: echoed, then run as a command or a prompt. */
  async function submit(text: string): Promise<"exit" | undefined> {
    const shown = shownAs.get(text) ?? text;
    shownAs.delete(text);
    echo(shown);
    if (plan.isAccepted(text)) return runner.sendPrompt(text, shown); // the plan as written, no @path attached from it
    if (/^!\S/.test(text)) return void (await shell(text.slice(1).trim()));
    if (text.trim() === "!") return void print(theme.dim(SHELL_HINT));
    if (await mcpPrompt(text)) return;
    const parsed = parseInput(text, custom, deps.rejectedCommands);
    if (parsed.type === "prompt") {
      session.nameIfUntitled(text);
      const sent = await attach(text);
      return sent === undefined ? undefined : runner.sendPrompt(sent);
    }
    if (parsed.type === "custom") {
      const { command } = parsed;
      const ranWith = [command.agent && `agent ${command.agent}`, command.model && `model ${command.model}`].filter(Boolean).join(", ");
      print(theme.dim(`  /${command.name} from ${command.source}${ranWith ? ` (this turn: ${ranWith})` : ""}`));
      try {
        const expanded = expandCommand(command, parsed.args);
        session.nameIfUntitled(expanded);
        const sent = await attach(expanded, command.project ? parsed.args : undefined); // a project's body is not the user's words: only the typed args name images outside it
        return void (sent !== undefined && (await session.forOneTurn(command, () => runner.sendPrompt(sent, text))));
      } catch (error) {
        return void print(theme.error(`/${command.name}: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
    if (parsed.type === "unknown") return void print(theme.warn(unknownCommandHint(parsed.name, parsed.closest)));
    if (parsed.type === "not-loaded") return void print(theme.warn(notLoadedHint(parsed.command)));
    const ran = await runSlash(parsed.name, parsed.args, {
      state,
      rich: screen.mode === "rich",
      render,
      session,
      theme,
      print,
      lastReasoning: view.lastReasoning,
      lastResult: () => paging.last(view.lastResult()),
      transcript: paging.transcript,
      forgetLast: view.forget,
      page: (text) => pageThrough(deps.pager, text, { state, screen, render, print }),
      pickSession,
      pick: screen.mode === "rich" ? pick : undefined,
      replay,
      ask: askKey,
      setInput: (text) => input.set(text),
      columns,
      rows: () => (screen.mode === "pipe" ? undefined : (screen.rows?.() ?? 24)),
      custom,
      context: () => meter.measure(),
    });
    if ("exit" in ran) return "exit";
    const send = ran.send;
    if (send !== undefined) return runner.sendPrompt(send, text); // a command that is a turn (/init), run as one
  }

  /** A command's one-key question on screen; the next key resolves it (loop-state.ts). */
  const askKey = (text: string) => (typeAhead.questionShown(), askOneKey(state, text, { pipe: screen.mode === "pipe", print, render }));

  function readPrompt(): Promise<string | null> {
    // The status line lives under the input; a screen that cannot redraw gets it written once per turn.
    if (screen.mode !== "rich" && state.statusDue) put(["", status()], "other");
    state.statusDue = false;
    return new Promise((resolve) => {
      state.waiting = resolve;
      render();
    });
  }

  function exit(): void {
    state.exiting = true;
    state.question?.answer("escape");
    state.pager?.close();
    queue.clear();
    state.turn?.abort.abort();
    state.command?.abort();
    const resolve = state.waiting;
    state.waiting = undefined;
    resolve?.(null);
  }

  return {
    elicit: createLoopElicitor({ state, theme, pipe: screen.mode === "pipe", askKey, print, render }), // an MCP server's question to the user
    key: (key: Key) => dispatch(key),
    /** The terminal changed size: the live area is drawn again; new transcript lines wrap to the new width. */
    redraw(): void {
      if (state.pager) return state.pager.draw();
      screen.setLive(undefined);
      render();
    },
    /** SIGTERM/SIGHUP: leave as if ctrl-d was pressed (the turn is aborted, its commands killed), exit code 130. */
    terminate(): void {
      state.exitCode = EXIT_CODES.interrupted;
      state.choosing?.resolve(undefined);
      state.choosing = undefined;
      exit();
    },
    /** A SIGINT from outside the terminal counts as ctrl-c. */
    interruptKey(): void {
      this.key({ name: "ctrl-c" });
    },
    async run(): Promise<number> {
      session = await deps.openSession({
        onTodos: (next) => {
          tasks.changed(next);
          render();
        },
        pickSession: (options, warnings) => {
          for (const warning of warnings) print(theme.warn(warning));
          return pickSession(options);
        },
      });
      tasks.reset(session.conversation().notebook.todos());
      // A job started or ended: the live area's jobs line changes; while one runs, its time ticks.
      let jobsTicker: ReturnType<typeof setInterval> | undefined;
      session.jobs().onChange(() => {
        const running = session.jobs().running().length > 0 && screen.mode === "rich";
        if (running && !jobsTicker) jobsTicker = setInterval(render, 1_000);
        if (!running && jobsTicker) jobsTicker = (clearInterval(jobsTicker), undefined);
        jobsTicker?.unref?.();
        render();
      });

      const notices = [...deps.notices, ...session.startNotices];
      print(headerLines({ version: deps.version, runtime: session.runtime(), home: deps.home, sessionLabel: session.label(), yolo: deps.yolo, mode: session.mode().mode, theme, columns: columns() - 1 }).join("\n"));
      for (const notice of notices) print(theme.warn(notice));
      const mcp = session.runtime().mcp;
      if (mcp) {
        print(theme.dim(`MCP: starting ${mcp.names.join(", ")} in the background; /mcp shows them.`));
        mcp.onNotice((notice) => print(theme.warn(notice.replaceAll("run shiro mcp login", "run /mcp login")))); // the loop signs in itself
      }
      if (session.conversation().history.length > 0) replay();
      // `shiro "fix the bug in page.ts"`: the prompt from the command line goes first, like a typed one.
      if (deps.initialPrompt) {
        const notice = deps.history.add(deps.initialPrompt);
        if (notice) print(theme.warn(notice));
        queue.push(deps.initialPrompt);
      }
      for (;;) {
        const queued = state.exiting ? undefined : queue.shift();
        const text = state.exiting ? null : (queued ?? (await readPrompt()));
        if (text === null || (await submit(text)) === "exit" || state.exiting) break;
      }
      if (state.exitCode !== EXIT_CODES.interrupted) await reviewAtExit({ state, session, theme, rich: screen.mode === "rich", render, print, ask: askKey });
      state.exiting = true;
      queue.clear();
      render();
      let message: string;
      try {
        // A step's save may still be in the thread pool: the final save must land after it.
        notifications.close();
        await session.settled();
        const jobsStopped = await session.stopJobs();
        if (jobsStopped) print(theme.dim(jobsStopped));
        await session.endHooks("exit");
        message = session.exitMessage();
      } catch (error) {
        print(theme.error(`could not build the exit message: ${error instanceof Error ? error.message : String(error)}`));
        message = "Good bye.\n";
      }
      screen.endLine();
      screen.write((lastBlank ? "" : "\n") + message);
      return state.exitCode;
    },
  };
}
