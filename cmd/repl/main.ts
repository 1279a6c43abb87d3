import pkg from "../../package.json" with { type: "json" };
import { EXIT_CODES } from "../../lib/errors.ts";
import { loadRuntime } from "../../lib/app/load-runtime.ts";
import { openHistory } from "../../lib/prompt/history.ts";
import { shadowNotices } from "../../lib/skills/skills.ts";
import { customCommandSources, loadCustomCommands } from "../../lib/prompt/custom-commands.ts";
import type { MainArgs } from "../args.ts";
import { askProjectTrust, openMcp } from "../mcp-start.ts";
import type { Elicitor } from "../../lib/mcp/elicitation.ts";
import { askHooksTrust } from "../hooks-trust.ts";
import { notifyDelays } from "./notifications.ts";
import { createDesktopNotifier, FOCUS_PROBE, FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON } from "./desktop-notify.ts";
import { createRepl } from "./controller.ts";
import { createKeyDecoder } from "./input/keys.ts";
import { createScreen, type ScreenMode } from "./input/screen.ts";
import { openReplSession } from "./session.ts";
import { colorEnabled, createTheme } from "./theme.ts";

// Bracketed paste and focus reporting, on while shiro has the terminal.
const TERMINAL_MODES_ON = "\x1b[?2004h" + FOCUS_REPORTING_ON;
const TERMINAL_MODES_OFF = "\x1b[?2004l" + FOCUS_REPORTING_OFF;
/** After SIGTERM/SIGHUP, how long the loop gets to abort the turn and kill its commands. */
const TERMINATE_GRACE_MS = 2_000;

/**
 * `shiro` in a terminal: the interactive loop. Owns the terminal while it runs (raw mode,
 * bracketed paste and focus reporting when it can move the cursor) and gives it back on every way
 * out, a crash included. The session
 * (cmd/repl/session.ts) brings sessions, memory, permissions, compaction and pricing.
 */
export async function runRepl(args: MainArgs, processEnv: Record<string, string | undefined>): Promise<number> {
  const cwd = process.cwd();
  const loaded = await loadRuntime(args.flags, processEnv, cwd);
  // The servers start before the loop exists: their questions go to it once it is made (until then, cancelled).
  let elicit: Elicitor | undefined;
  const { mcp, notices: mcpNotices } = await openMcp(
    loaded,
    processEnv,
    (question) => askProjectTrust(question, process.stdin, process.stdout),
    (question, signal) => elicit?.(question, signal) ?? Promise.resolve({ action: "cancel" }),
  );
  const runtime = mcp ? { ...loaded, mcp } : loaded;
  if (mcp) process.on("exit", () => mcp.kill());
  const hookOptions = { disabled: !args.hooks, trustProject: args.trustProjectHooks };
  const hooksTrouble = await askHooksTrust(runtime, hookOptions, process.stdin, process.stdout);
  const history = openHistory(runtime.home, runtime.workspace.root);
  const custom = loadCustomCommands(customCommandSources({ root: runtime.workspace.root, shiroHome: runtime.home }));
  const stdout = process.stdout;
  const color = colorEnabled(processEnv, stdout.isTTY === true);
  // NO_COLOR turns colour off, not the redrawn live area: cursor movement is not colour. Only a
  // terminal that cannot move the cursor (TERM=dumb) gets the one-row input.
  const mode: ScreenMode = !stdout.isTTY ? "pipe" : processEnv.TERM === "dumb" ? "plain" : "rich";
  const screen = createScreen(stdout, mode);
  const pagerCommand = processEnv.PAGER?.trim();
  const notifier = createDesktopNotifier({
    setting: () => runtime.settings.notify,
    rich: mode === "rich",
    env: processEnv,
    write: (text) => void stdout.write(text),
    run: runNotifyCommand,
    // Only tests change it.
    ...(Number.isFinite(Number(processEnv.SHIRO_NOTIFY_LONG_MS || "x")) ? { longTurnMs: Number(processEnv.SHIRO_NOTIFY_LONG_MS) } : {}),
  });
  const repl = createRepl({
    openSession: (hooks) => openReplSession(args, processEnv, runtime, hooks),
    workspace: runtime.workspace,
    screen,
    theme: createTheme(color),
    history: history.store,
    yolo: args.yolo,
    version: pkg.version,
    home: runtime.workspace.userHome,
    // Said once, here: a broken skill or custom command file never stops the session.
    notices: [...(history.notice ? [history.notice] : []), ...(runtime.skills?.problems ?? []), ...custom.problems, ...(runtime.skills ? shadowNotices(runtime.skills) : []), ...custom.shadowNotices, ...mcpNotices, ...(hooksTrouble ? [hooksTrouble] : [])],
    customCommands: custom.commands,
    rejectedCommands: custom.rejected,
    ...(pagerCommand ? { pager: (text: string) => page(pagerCommand, text) } : {}),
    initialPrompt: args.positional.join(" ").trim() || undefined,
    ...(mode !== "pipe" ? { bell: () => void stdout.write("\x07") } : {}),
    // Only tests change it (SHIRO_ANSWER_QUIET_MS=0: answers count at once).
    ...answerQuiet(processEnv.SHIRO_ANSWER_QUIET_MS),
    ...(notifyDelays(processEnv.SHIRO_NOTIFY_MS) ? { notifyDelays: notifyDelays(processEnv.SHIRO_NOTIFY_MS)! } : {}),
    ...(mode !== "pipe" ? { alerts: notifier } : {}),
  });

  elicit = repl.elicit;

  const stdin = process.stdin;
  const decoder = createKeyDecoder((report) => (report.type === "focus" ? notifier.focus(report.focused) : notifier.modeReport(report.mode, report.value)));
  const text = new TextDecoder();
  const onData = (chunk: Buffer) => {
    for (const key of decoder.feed(text.decode(chunk, { stream: true }))) repl.key(key);
  };
  const onSigint = () => repl.interruptKey();
  const onResize = () => repl.redraw();
  const restore = () => {
    try {
      if (mode === "rich") stdout.write(TERMINAL_MODES_OFF);
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      // the terminal is already gone (hangup): nothing left to give back
    }
  };
  const onTerminate = () => {
    repl.terminate();
    // If the turn does not wind down in time, leave anyway with the terminal given back.
    setTimeout(() => {
      restore();
      process.exit(EXIT_CODES.interrupted);
    }, TERMINATE_GRACE_MS).unref();
  };

  /**
   * Runs the pager (`sh -c "$PAGER"`) with `text` on its stdin and the terminal handed over:
   * cooked mode, no bracketed paste, and shiro not reading keys until it exits.
   */
  const page = async (command: string, text: string) => {
    stdin.off("data", onData);
    stdin.pause();
    restore();
    try {
      const proc = Bun.spawn(["sh", "-c", command], { stdin: "pipe", stdout: "inherit", stderr: "inherit" });
      proc.stdin.write(text.endsWith("\n") ? text : text + "\n");
      await proc.stdin.end();
      await proc.exited;
    } finally {
      stdin.setRawMode(true);
      if (mode === "rich") stdout.write(TERMINAL_MODES_ON);
      stdin.on("data", onData);
      stdin.resume();
    }
  };

  stdin.setRawMode(true);
  // The probe first: a terminal that answers it reports focus (keys.ts hands both to the notifier).
  if (mode === "rich") stdout.write(FOCUS_PROBE + TERMINAL_MODES_ON);
  process.on("exit", restore); // a crash too gives the terminal back
  stdin.on("data", onData);
  stdin.on("end", onTerminate); // the terminal went away without a hangup signal
  stdin.resume();
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onTerminate);
  process.on("SIGHUP", onTerminate);
  stdout.on("resize", onResize);
  // The binary starts with JavaScriptCore compiling hot code later than normal (scripts/compile.ts
  // JIT_POLICY), which suits run-once start-up code; a session that waits for keys is long-lived.
  setImmediate(() => Bun.unsafe.setJITPolicy?.(1));
  try {
    return await repl.run();
  } finally {
    mcp?.kill(); // the servers' processes and streams would keep shiro from exiting
    stdin.off("data", onData);
    stdin.off("end", onTerminate);
    stdin.pause();
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onTerminate);
    process.off("SIGHUP", onTerminate);
    stdout.off("resize", onResize);
    restore();
    process.off("exit", restore);
  }
}

/** Config `notify` as a command: `sh -c` with the event as JSON on stdin, in the background, its output dropped. */
function runNotifyCommand(command: string, json: string): void {
  try {
    const proc = Bun.spawn(["sh", "-c", command], { stdin: "pipe", stdout: "ignore", stderr: "ignore" });
    proc.stdin.write(json + "\n");
    void Promise.resolve(proc.stdin.end()).catch(() => {});
    proc.unref();
  } catch {
    // a command that cannot start says nothing: a notification is never worth stopping the loop
  }
}

/** `SHIRO_ANSWER_QUIET_MS`, when it is a number of milliseconds; anything else keeps the default. */
function answerQuiet(value: string | undefined): { answerQuietMs?: number } {
  const ms = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
  return Number.isFinite(ms) && ms >= 0 ? { answerQuietMs: ms } : {};
}
