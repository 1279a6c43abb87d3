import { fstatSync } from "node:fs";
import type { AgentEvent } from "../lib/events.ts";
import { EXIT_CODES, ShiroError, statusOfExitCode } from "../lib/errors.ts";
import { callContext, plainTheme, renderEvent } from "../lib/render.ts";
import { loadRuntime, runtimeForCommand } from "../lib/app/load-runtime.ts";
import { shiroHome } from "../lib/config/load.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { shadowNotices } from "../lib/skills/skills.ts";
import { customCommandSources, expandCommand, loadCustomCommands } from "../lib/prompt/custom-commands.ts";
import { notLoadedHint, parseInput } from "../lib/prompt/slash-commands.ts";
import { GO_ON_HEADLESS, HEADLESS_WAIT_MS, openSession } from "../lib/app/session.ts";
import { describeAttachment } from "../lib/prompt/attach.ts";
import { attachImagesFor } from "../lib/prompt/attach-image.ts";
import { attachAll } from "../lib/app/mcp-attach.ts";
import { mcpPromptTurn } from "../lib/app/mcp-prompt-run.ts";
import { renderTodos } from "../lib/notebook/render.ts";
import { costUsd } from "../lib/sessions/pricing.ts";
import { describeTurnChanges } from "../lib/sessions/undo/report.ts";
import { sessionChoice, type MainArgs } from "./args.ts";
import { openMcp, requiredServers, requiredServersMissing } from "./mcp-start.ts";
import { createOutput, onTerminationSignals } from "./headless-output.ts";
import { resultRecord, type ResultFields } from "./result-record.ts";
import { goalForRun, runGoal, type GoalRun, type GoalState } from "../lib/app/goal-run.ts";
import { readPipedStdin } from "./stdin.ts";

/** Whether a descriptor is a terminal (a character device; /dev/null is one too, where a newline is harmless). */
const isTerminal = (fd: number) => {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
};


/** The error line of a turn a signal stopped. */
const interruptedLine = (signal: NodeJS.Signals) => `interrupted by ${signal}; the turn so far is saved: ${GO_ON_HEADLESS}`;

/** `shiro -p`: one turn, no questions asked, events to stdout/stderr, exit code from the outcome. */
export async function runHeadless(args: MainArgs, processEnv: Record<string, string | undefined>): Promise<number> {
  const piped = await readPipedStdin(args.promptGiven && Boolean(args.prompt));
  // `--goal "…"` alone: the objective is the prompt too.
  const argPrompt = [args.prompt ?? "", ...args.positional].join(" ").trim() || (piped ? "" : (args.goal?.objective ?? ""));
  if (!argPrompt && !piped) throw new ShiroError("usage", 'no prompt: pass one with -p "…" or pipe text on stdin.');

  const cwd = process.cwd();
  // `-p "/review src/a.ts"`: a custom command is expanded (piped text follows it), its agent and
  // model used for the run. One whose file was not used stops the run, before any server starts,
  // saying why. Any other line starting with a slash goes to the model as written.
  const custom = loadCustomCommands(customCommandSources({ root: findProjectRoot(cwd), shiroHome: shiroHome(processEnv) }));
  const parsed = parseInput(argPrompt, custom.commands, custom.rejected);
  if (parsed.type === "not-loaded") throw new ShiroError("usage", notLoadedHint(parsed.command, "fix the file and run this again"));
  // A command's own model is the run's from the start: it runs where no other model is chosen
  // (a preset without a default model), and no other model's window is asked for.
  const commandModel = parsed.type === "custom" ? parsed.command.model : undefined;
  const loaded = await loadRuntime(commandModel ? { ...args.flags, model: commandModel } : args.flags, processEnv, cwd);
  // Headless: a project's .mcp.json is used only if trusted before (or "trustProjectMcp").
  const { mcp, notices: mcpNotices } = await openMcp(loaded, processEnv);
  let runtime = mcp ? { ...loaded, mcp } : loaded;
  let text = argPrompt;
  /** What of `text` the user typed: a project's command's body is the project's words, not theirs (attach.ts). */
  let typed: string | undefined;
  if (parsed.type === "custom") {
    if (parsed.command.project) typed = parsed.args;
    text = expandCommand(parsed.command, parsed.args);
    runtime = await runtimeForCommand(runtime, parsed.command, args.flags, processEnv);
  }

  const controller = new AbortController();
  // Progress lines; a stderr that fails only silences them.
  const err = createOutput(2, () => {});
  // If the reader of stdout goes away, there is no one to answer: wind the turn down. A stdout
  // that fails otherwise (a full disk) does the same, says so, and the run exits 1.
  let readerGone = false;
  let outputFailed = false;
  const out = createOutput(1, (why) => {
    if (why === "gone") readerGone = true;
    else {
      outputFailed = true;
      err.write(`shiro: could not write the answer to stdout (${why}); stopping the run.\n`);
    }
    controller.abort();
  });
  const denied: { tool: string; subject?: string; reason: string }[] = [];
  let finalText = "";
  let textEndsWithNewline = true;
  const endAnswerLine = () => {
    // Keep a terminal showing both streams readable: end the answer's current line first.
    if (!textEndsWithNewline) out.write("\n");
    textEndsWithNewline = true;
  };
  /** The subagents this run started, and the tokens they used (the result record counts them). */
  const subagents = { count: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 as number | null };
  const emit = (event: AgentEvent) => {
    if (event.type === "subagent-end") {
      subagents.count++;
      subagents.usage.inputTokens += event.usage.inputTokens;
      subagents.usage.outputTokens += event.usage.outputTokens;
    }
    if (event.type === "tool-denied") denied.push({ tool: event.tool, ...(event.subject ? { subject: event.subject } : {}), reason: event.reason });
    if (event.type === "text") finalText += event.text;
    if (event.type === "tool-call") finalText = ""; // the answer is what the model says after its last tool call
    if (args.json) {
      // Results and errors as docs/headless.md gives them: their call's subject is on its tool-call line.
      if (event.type === "tool-result" || event.type === "tool-error") out.write(JSON.stringify({ ...event, subject: undefined }) + "\n");
      else if (event.type !== "step") out.write(JSON.stringify(event) + "\n");
      return;
    }
    if (event.type === "text") {
      out.write(event.text);
      textEndsWithNewline = event.text.endsWith("\n");
      return;
    }
    const called = event.type === "tool-result" || event.type === "tool-error" ? callContext(session.subjectKind(event.tool), event.subject) : {};
    const line = renderEvent(event, plainTheme, called);
    if (!line) return;
    endAnswerLine();
    err.write(line + "\n");
  };
  const session = await openSession({
    runtime,
    flags: args.flags,
    env: processEnv,
    hooks: { disabled: !args.hooks, trustProject: args.trustProjectHooks },
    memory: args.memory,
    choice: sessionChoice(args),
    interactive: false,
    yolo: args.yolo,
    onSaveError: (error) => emit({ type: "notice", message: `could not save the session: ${error instanceof Error ? error.message : String(error)}` }),
    onTodos: (todos) => {
      if (args.json) return; // the JSON stream carries the list in the result record
      endAnswerLine();
      err.write((renderTodos(todos) || "tasks: (cleared)") + "\n");
    },
  });
  const policy = session.policy();
  // Whatever way the process ends, the session is flushed and released, and the sandbox ended.
  const closeSession = () => (session.close(), mcp?.kill());
  process.on("exit", closeSession);
  // --json opens with the session it runs in: a script knows the id (for `-r`) before the turn ends.
  if (args.json) {
    const settings = session.runtime().settings;
    out.write(JSON.stringify({ type: "session", id: session.id(), model: settings.model, cwd, resumed: session.saved() }) + "\n");
  }
  for (const run of session.startHookRuns) emit({ type: "hook", ...run });
  for (const message of [...session.hookNotices, ...(runtime.skills?.problems ?? []), ...custom.problems, ...(runtime.skills ? shadowNotices(runtime.skills) : []), ...custom.shadowNotices, ...mcpNotices, ...session.startNotices]) emit({ type: "notice", message });
  // The approval mode is the interactive loop's; headless, nobody is asked, so it changes nothing:
  // what runs is what the loop runs without a question in any mode (the read-only commands).
  const mode = runtime.settings.approvalMode;
  if (mode !== "ask" && !args.yolo) {
    const where = args.flags.approvalMode !== undefined ? "--mode" : `config "approvalMode" (${mode})`;
    emit({ type: "notice", message: `${where} applies to the interactive loop; headless runs ask nobody, so only reads and read-only commands run: use --yolo to allow edits and other commands` });
  }
  mcp?.onNotice((message) => emit({ type: "notice", message }));
  const sandbox = runtime.commands.status;
  if (sandbox.state === "unavailable") {
    emit({ type: "notice", message: `sandbox unavailable: ${sandbox.why}. To get it: ${sandbox.fix}. Commands run directly on this machine, protected only by the guard and the permission rules.` });
  }

  /** The run's result record: what the turn did, with what the whole run saw (its answer, denials, task list, subagents). */
  const record = (exitCode: number, fields: Partial<ResultFields>) =>
    resultRecord(exitCode, {
      ...fields,
      sessionId: session.saved() ? session.id() : null,
      text: finalText,
      denied,
      todos: session.conversation().notebook.todos(),
      subagents,
    });

  const spend = session.checkSpend();
  if (spend?.refuse) {
    closeSession();
    // This record names the session and its task list, so it is written here, not by cmd/shiro.ts.
    if (args.json) out.write(record(EXIT_CODES["spend-limit"], { error: spend.refuse }));
    err.write(`shiro: ${spend.refuse}\n`);
    return EXIT_CODES["spend-limit"];
  }
  if (spend?.notice) emit({ type: "notice", message: spend.notice });

  /** The signal that stopped the run, for its error line. */
  let stoppedBy: NodeJS.Signals | undefined;
  const stopSignals = onTerminationSignals((signal) => {
    stoppedBy ??= signal;
    // A terminal showed `^C` where the cursor was: what follows starts on a line of its own.
    if (signal === "SIGINT" && isTerminal(2)) {
      err.write("\n");
      if (isTerminal(1)) textEndsWithNewline = true;
    }
    controller.abort();
  }, closeSession);
  // One turn and no "later": its servers get a short while to connect (one still starting joins at a later step).
  await mcp?.settled(HEADLESS_WAIT_MS);
  // `/mcp__<server>__<prompt> …` runs a server's prompt; `@path` (files and images) and `@server:uri` in the prompt given as an argument attach the file or resource; piped text is sent as it came.
  const mcpPrompt = text ? await mcpPromptTurn(text, mcp, controller.signal, piped) : undefined;
  const images = attachImagesFor(runtime.home, runtime.workspace.userHome);
  const attached = mcpPrompt && "text" in mcpPrompt ? mcpPrompt : text ? await attachAll(text, runtime.workspace, mcp, { unscanned: piped, signal: controller.signal, images, ...(typed !== undefined ? { typed } : {}) }) : { text: piped, reports: [] };
  // The session is named after what was typed: not the piped text (`git diff | shiro -p review`) nor attached files that follow it.
  if (text) session.nameIfUntitled(text);
  for (const report of attached.reports) emit({ type: "notice", message: describeAttachment(report) });
  const stopLine = requiredServersMissing(mcp, requiredServers(runtime)) ?? (mcpPrompt && "error" in mcpPrompt ? mcpPrompt.error : undefined);
  if (stopLine) {
    stopSignals();
    closeSession();
    if (args.json) out.write(record(EXIT_CODES.usage, { error: stopLine }));
    err.write(`shiro: ${stopLine}\n`);
    return EXIT_CODES.usage;
  }
  policy.startTurn();
  const before = session.subagents();
  // A goal (docs/goals.md): set by the flags (the -p text is the objective without --goal), or the
  // resumed session's own, active or paused, which this run goes on with.
  const goalOn = goalForRun(session.conversation(), args.goal, text || attached.text) !== undefined;
  // The transcript beside the session (lib/app/transcript.ts) hears the turn too, for the loop's view after -c.
  session.transcript.prompt(text || attached.text);
  const io = { emit: (event: AgentEvent) => (session.transcript.event(event), emit(event)), approve: policy.approve, signal: controller.signal, stoppedByUser: () => !readerGone && !outputFailed, goOn: GO_ON_HEADLESS };
  const goalRun: GoalRun | undefined = goalOn ? await runGoal({ conversation: session.conversation, check: session.runCheck, checkSpend: session.checkSpend }, attached.text, io) : undefined;
  const result = goalRun ? goalRun.result : await session.runPrompt(attached.text, io);
  const after = session.subagents();
  subagents.costUsd = before.costUsd === undefined || after.costUsd === undefined ? null : after.costUsd - before.costUsd;
  // A step's save may still be in the thread pool: let it land, so the final save is the last word.
  await session.settled();
  const jobsStopped = await session.stopJobs();
  if (jobsStopped) emit({ type: "notice", message: jobsStopped });
  // Suggested notes for project memory go to the inbox, only when the config asks for it and the turn did not fail (docs/project-memory.md).
  if (session.runtime().settings.memorySuggestions === "inbox" && !controller.signal.aborted && result.status !== "error") {
    const said = await session.suggestToInbox(controller.signal, (message) => emit({ type: "notice", message }));
    if (said) emit({ type: "notice", message: said });
  }
  await session.endHooks(controller.signal.aborted ? "other" : "exit");
  stopSignals();
  const exitLine = session.exitLine();
  closeSession();

  // A reader that took what it wanted and left (`| head -1`) is not an interruption: exit 0.
  // A goal's end decides, but never over a failed stdout or a reader that left; the spend ceiling's exit 4 wins over the goal's 5.
  const goalExit = goalRun?.ended === "met" ? EXIT_CODES.success : goalRun?.ended === "unmet" ? EXIT_CODES["goal-unmet"] : goalRun?.ended === "spend" ? EXIT_CODES["spend-limit"] : undefined;
  const exitCode = outputFailed ? EXIT_CODES.error : readerGone && result.status === "interrupted" ? EXIT_CODES.success : (goalExit ?? EXIT_CODES[result.status]);
  // A signal's stop gets its line too: the script (and the person at the terminal) learns what
  // stopped the run and how to go on from where it stopped.
  const error = result.error ?? goalRun?.spendRefusal ?? (stoppedBy && result.status === "interrupted" ? interruptedLine(stoppedBy) : undefined);
  if (args.json) {
    // The server's own cost, when it stated one, is the record's cost; the usage keeps to tokens.
    const { costUsd: stated, ...usage } = result.usage;
    out.write(
      record(exitCode, {
        status: goalExit !== undefined && exitCode === goalExit ? statusOfExitCode(exitCode) : result.status,
        steps: result.steps,
        goal: goalRecord(goalRun?.goal),
        usage,
        costUsd: stated ?? costUsd(runtime.settings.model, usage) ?? null,
        error: error ?? null,
        truncated: result.truncated ?? false,
        changes: result.changes ?? null,
      }),
    );
  } else {
    endAnswerLine();
    if (error && !result.error) err.write(`${goalRun?.spendRefusal === error ? "shiro: " : ""}${error}\n`);
    const changes = describeTurnChanges(result.changes, "shiro undo");
    if (changes) err.write(changes + "\n");
    err.write(exitLine);
  }
  return exitCode;
}

/** The result record's `goal`: what a script needs to know of the run's goal (docs/goals.md). */
function goalRecord(goal: GoalState | undefined): ResultFields["goal"] {
  if (!goal) return null;
  return {
    objective: goal.objective,
    met: goal.status === "met",
    turns: goal.turns,
    maxTurns: goal.maxTurns,
    check: goal.until ? { command: goal.until, exitCode: goal.check?.exitCode ?? null, tail: goal.check?.tail ?? "" } : null,
    done: goal.done ?? null,
  };
}
