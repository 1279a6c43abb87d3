import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool, type ToolContext } from "./define.ts";
import { HeadTailBuffer } from "../text/head-tail.ts";
import { overstrikeLines } from "../text/overstrike.ts";
import { safePath, sandboxFailure, shortSandboxReason, type CommandRunner, type Commands, type LoginSetup } from "../sandbox/index.ts";
import { defaultCommands } from "./commands.ts";
import { endedNote } from "./jobs.ts";

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Kept from the start and the end of the output; together well under runTool's 30,000-character cut. */
const OUTPUT_HEAD_CHARS = 12_000;
const OUTPUT_TAIL_CHARS = 12_000;
/** After the shell exits, how long to wait for background processes still holding its output open. */
const DRAIN_AFTER_EXIT_MS = 200;
/**
 * How the first line of a bash result starts, by how the command ended; the pruned-span digest
 * (lib/prune/digest.ts) reads them back. `Exit code 1`, `Command timed out after 120s; …`,
 * `Killed by SIGKILL.`, `Interrupted by the user; …`.
 */
export const BASH_EXITED = "Exit code ";
export const BASH_TIMED_OUT = "Command timed out after ";
export const BASH_KILLED = "Killed by ";
export const BASH_INTERRUPTED = "Interrupted by the user";
export const BASH_BACKGROUND = "Running in the background as job ";
/** How long a call with `background: true` waits for the first lines before it returns. */
export const BACKGROUND_FIRST_OUTPUT_MS = 1_000;

const schema = v.object({
  command: v.pipe(v.string(), v.minLength(1, "command must not be empty")),
  timeout: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(`ms, default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}.`),
    ),
  ),
  background: v.optional(v.pipe(v.boolean(), v.description("Return at once with a job id (servers, watchers); see jobs."))),
});

/**
 * The bash tool, running its commands through `commands` (lib/sandbox): in the sandbox when it is
 * on. A command that fails in a way the sandbox caused says so; interactively the user is then
 * offered to run it once outside (ctx.runOutside, which the permission policy supplies).
 * Without `commands` (tests, digests) commands run directly, without the key in their environment.
 */
export function createBashTool(commands?: Commands) {
  const sandboxed = commands?.status.state === "on";
  return defineTool({
    name: "bash",
    description:
      "Run a command with bash in a fresh shell with the user's login environment (cd and exports do not carry over: chain with &&). Returns the exit code " +
      "and stdout+stderr; long output keeps its start and end. Nothing can be typed in: use non-interactive flags. " +
      "On timeout it is killed with its children." +
      (sandboxed
        ? " Sandboxed: only the workspace, /tmp and package caches are writable; secrets and the API key are hidden. " +
          "If the sandbox stops a command, say what it needs."
        : ""),
    schema,
    mutates: true,
    subject: { kind: "command", of: (input) => input.command },
    defaultDecision: "ask",
    async execute(input, ctx) {
      const result = await runBash(input, ctx);
      // A background job that ended on its own is told once, here or in the next jobs call or prompt.
      return { ...result, output: result.output + endedNote((commands ?? defaultCommands(ctx.root)).jobs) };
    },
  });

  async function runBash(input: v.InferOutput<typeof schema>, ctx: ToolContext): Promise<{ output: string; summary: string; exitCode?: number | null }> {
    if (ctx.signal.aborted) throw new ToolError("bash: not run, because the turn was interrupted before it started.");
    const requested = input.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
    const timeoutMs = Math.min(requested, MAX_BASH_TIMEOUT_MS);
    const where = commands ?? defaultCommands(ctx.root);
    const shell = where.helper("bash");
    if (!shell) throw new ToolError("bash: no bash found in an absolute PATH entry outside the workspace, so no command can run.");
    let run = await runInProcessGroup(where.runner, shell, input.command, ctx, timeoutMs, where, input.background === true);
    if (run.end === "background") return backgroundResult(run, input.background === true);
    let loginNote = run.note;
    let sandboxNote = "";
    const why = where.runner.sandboxed && run.end === "exited" ? sandboxFailure(run.output, run.exitCode, sandboxView(where)) : undefined;
    if (why) {
      if (ctx.runOutside && (await ctx.runOutside(why))) {
        const outside = await runInProcessGroup(where.host, shell, input.command, ctx, timeoutMs, where, false);
        if (outside.end === "background") return backgroundResult(outside, false);
        loginNote = [loginNote, outside.note].filter(Boolean).join("") || undefined;
        if (outside.started) {
          run = outside;
          sandboxNote = `\n[shiro: this failed in the sandbox (${why}); the user let it run once outside the sandbox, and this is its result there.]`;
        } else {
          // Interrupted while the host's login shell was read: what stands is the sandbox's run.
          sandboxNote = `\n[shiro: this failed in the sandbox (${why}); the user let it run once outside the sandbox, but the turn was interrupted before it started there.]`;
        }
      } else {
        sandboxNote =
          `\n[shiro: this looks stopped by the sandbox: ${why}. ` +
          (ctx.runOutside ? "The user chose not to run it outside the sandbox. " : "") +
          "Do not try to get around the sandbox; tell the user what the command needs, and they can widen the sandbox in the config (shiro help permissions).]";
      }
    }
    // Headless, nobody was asked: the result line says what stopped it, as the question would have.
    const stopped = why && !ctx.runOutside ? `, stopped by the sandbox: ${shortSandboxReason(why)}` : "";
    const clampNote =
      requested > MAX_BASH_TIMEOUT_MS
        ? `\n(timeout ${requested}ms is above the ${MAX_BASH_TIMEOUT_MS}ms maximum; used ${MAX_BASH_TIMEOUT_MS}ms)`
        : "";
    const body = (loginNote ?? "") + (run.output || "(no output)");
    const effects = "Its effects are unknown: check what it changed before running it again.";
    switch (run.end) {
      case "background":
        return backgroundResult(run, false);
      case "timeout":
        return {
          output: `${BASH_TIMED_OUT}${seconds(timeoutMs)}; it was killed with every process it started. ${effects}${clampNote}\n${body}${sandboxNote}`,
          summary: `timed out after ${seconds(timeoutMs)}`,
          exitCode: null,
        };
      case "interrupted":
        return {
          output: run.started
            ? `${BASH_INTERRUPTED}; the command was killed with every process it started. ${effects}\n${body}`
            : `${BASH_INTERRUPTED} before the command started (the login shell was still being read); it did not run.`,
          summary: "interrupted",
          exitCode: null,
        };
      case "exited":
        return run.signal
          ? { output: `${BASH_KILLED}${run.signal}.${clampNote}\n${body}${sandboxNote}`, summary: `killed by ${run.signal}${stopped}`, exitCode: null }
          : { output: `${BASH_EXITED}${run.exitCode}${clampNote}\n${body}${sandboxNote}`, summary: `exit ${run.exitCode}${stopped}`, exitCode: run.exitCode };
      default:
        return run.end satisfies never;
    }
  }
}

/** The bash tool of tests and digests: commands run directly (see createBashTool). */
export const bashTool = createBashTool();

function sandboxView(commands: Commands): { network: boolean; hidden: readonly string[] } {
  const status = commands.status;
  return status.state === "on" ? { network: status.network, hidden: status.summary.hidden } : { network: true, hidden: [] };
}

/** The login setups whose problem a command has already reported. */
const toldProblem = new WeakSet<LoginSetup>();

/** What the model reads, before the first command's output, when commands run without the user's profile. */
export function loginProblemNote(problem: string): string {
  return `[shiro: the user's login shell could not be read (${problem}), so commands run without their profile: what it adds to PATH, and the variables it exports, are missing.]\n`;
}

/** What the user is told, once, in the same case. */
export function loginProblemNotice(problem: string): string {
  return `your login shell could not be read (${problem}), so commands run without your profile: what it adds to PATH and the variables it exports are missing. Check it with: bash -lc true`;
}

/**
 * `note`: shiro's word on how the command was run (the login shell's problem), kept apart from its
 * output. `started`: false when the call was interrupted while the login shell was still being read.
 */
type RunResult = {
  end: "exited" | "timeout" | "interrupted" | "background";
  exitCode: number | null;
  signal: string | null;
  output: string;
  note?: string;
  started: boolean;
  /** The job it became (end "background"). */
  job?: number;
};

/** What the model reads of a command that went on in the background: its job id and the output so far. */
function backgroundResult(run: RunResult, asked: boolean): { output: string; summary: string } {
  const how = asked ? "" : " (the user sent it there with ctrl-b)";
  const ended = run.exitCode !== null || run.signal !== null ? ` It has already ended (${run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode}`}).` : "";
  return {
    output: `${BASH_BACKGROUND}${run.job}${how}.${ended} Read its new output or stop it with the jobs tool.\n${(run.note ?? "") + (run.output || "(no output yet)")}`,
    summary: `job ${run.job}${asked ? "" : " (sent to the background)"}`,
  };
}

/**
 * Runs `bash -c command` with the login environment (or `bash -lc command` without one) through
 * `runner` (which makes it the leader of a new process group), so
 * that on timeout or abort the whole tree, background jobs included, is stopped with one request.
 * Chunks go to ctx.onOutput as they arrive. Resolves once the shell has exited and, if it was
 * stopped, once its group is gone.
 */
async function runInProcessGroup(
  runner: CommandRunner,
  shell: string,
  command: string,
  ctx: ToolContext,
  timeoutMs: number,
  commands: Commands,
  background: boolean,
): Promise<RunResult> {
  const { loginEnv, path, jobs } = commands;
  // The login environment read once (login-env.ts) and a plain shell; without one, a login shell.
  // Waiting for it (up to its 10 s limit) is part of the command for the user: ctrl-c stops the wait.
  const login = await unlessAborted(loginEnv?.(runner), ctx.signal);
  if (ctx.signal.aborted) return { end: "interrupted", exitCode: null, signal: null, output: "", started: false };
  // A read-only command's programs are the system's: PATH without relative or workspace entries.
  const env = login && ctx.readOnly ? { ...login.vars, PATH: safePath(login.vars.PATH ?? path, ctx.root) } : login?.vars;
  const proc = env ? runner.spawn([shell, "-c", command], { cwd: ctx.cwd, env }) : runner.spawn([shell, "-lc", command], { cwd: ctx.cwd });
  const output = new HeadTailBuffer(OUTPUT_HEAD_CHARS, OUTPUT_TAIL_CHARS);
  let note: string | undefined;
  if (login?.problem !== undefined && !toldProblem.has(login)) {
    // Said once, by the first command (the model and the user both read it).
    toldProblem.add(login);
    note = loginProblemNote(login.problem);
    ctx.notice?.(loginProblemNotice(login.problem));
  }
  const readers = [proc.stdout.getReader(), proc.stderr.getReader()] as const;
  /** Once the command is a job, its output goes there instead. */
  let toJob: ((chunk: string) => void) | undefined;
  const collect = (stream: "stdout" | "stderr") => (chunk: string) => {
    if (toJob) return toJob(chunk);
    output.push(chunk);
    try {
      ctx.onOutput?.(stream, chunk);
    } catch {
      // a failing screen must not stop the command's output from being read
    }
  };
  const pumps = Promise.all([pump(readers[0], collect("stdout")), pump(readers[1], collect("stderr"))]);
  const pid = runner.sandboxed ? undefined : proc.pid;
  if (background) {
    const job = jobs.add(command, proc, pid === undefined ? {} : { pid });
    toJob = job.append;
    // Cleared timers, not Bun.sleep: a pending sleep would keep a run that ends now alive (see below).
    const first = delay(BACKGROUND_FIRST_OUTPUT_MS);
    const early = await Promise.race([proc.exited, unlessAborted(first.done, ctx.signal)]);
    first.cancel();
    if (early) {
      // A command that already ended: what it printed last is drained as after a foreground one.
      const drain = delay(DRAIN_AFTER_EXIT_MS);
      await Promise.race([pumps, drain.done]);
      drain.cancel();
    }
    const seen = await jobs.read(job.id, 0);
    const exit = early ?? { exitCode: null, signal: null };
    const text = overstrikeLines(seen?.text ?? "");
    return { end: "background", job: job.id, exitCode: exit.exitCode, signal: exit.signal, output: firstLines(text), started: true, ...(note ? { note } : {}) };
  }
  /** ctrl-b: the command goes on as a job and the call returns (jobs.ts `foreground`). */
  let sentBack: (() => void) | undefined;
  const backgrounded = new Promise<"background">((done) => (sentBack = () => done("background")));
  let jobId: number | undefined;
  const leaveForeground = jobs.foreground(command, () => {
    if (jobId !== undefined || end !== "exited" || stopping) return false;
    const job = jobs.add(command, proc, { ...(pid === undefined ? {} : { pid }), seen: output.text() });
    jobId = job.id;
    toJob = job.append;
    sentBack?.();
    return true;
  });

  let end: RunResult["end"] = "exited";
  let stopping: Promise<void> | undefined;
  const stop = (reason: "timeout" | "interrupted") => {
    if (stopping) return;
    end = reason;
    stopping = proc.stop();
  };
  const timer = setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("interrupted");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let exit;
  try {
    const first = await Promise.race([proc.exited, backgrounded]);
    if (first === "background") {
      return { end: "background", job: jobId, exitCode: null, signal: null, output: overstrikeLines(output.text()), started: true, ...(note ? { note } : {}) };
    }
    exit = first;
    clearTimeout(timer); // a timeout or abort from now on would misreport a command that finished
    ctx.signal.removeEventListener("abort", onAbort);
    await stopping;
    // A cleared timer, not Bun.sleep: a pending sleep would hold the process open for the rest of
    // its 200 ms when this was the last command (shiro exits when nothing is left to wait for).
    let drain: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([pumps, new Promise<void>((done) => (drain = setTimeout(done, DRAIN_AFTER_EXIT_MS)))]);
    clearTimeout(drain);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    leaveForeground();
    if (jobId === undefined) for (const reader of readers) reader.cancel().catch(() => {});
  }
  const signal = end === "exited" ? exit.signal : null;
  return { end, exitCode: exit.exitCode, signal, output: overstrikeLines(output.text()), started: true, ...(note ? { note } : {}) };
}

/** `pending`, unless `signal` aborts first (then undefined); a missing promise is undefined. */
async function unlessAborted<T>(pending: Promise<T> | undefined, signal: AbortSignal): Promise<T | undefined> {
  if (!pending || signal.aborted) return signal.aborted ? undefined : pending;
  let onAbort = () => {};
  const aborted = new Promise<undefined>((done) => (onAbort = () => done(undefined)));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([pending, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

type ChunkReader = { read(): Promise<{ done: boolean; value?: Uint8Array }> };

async function pump(reader: ChunkReader, onChunk: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      const text = decoder.decode(value, { stream: true });
      if (text) onChunk(text);
    }
  } catch {
    // cancelled after the shell exited: whatever arrived is already collected
  }
  const rest = decoder.decode();
  if (rest) onChunk(rest);
}

/** A timer to race against, and the way to clear it. */
function delay(ms: number): { done: Promise<undefined>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return { done, cancel: () => clearTimeout(timer) };
}

/** The first lines of a background command's output, for the call's result (the rest is read with jobs). */
function firstLines(text: string): string {
  const lines = text.split("\n");
  const head = lines.slice(0, 20).join("\n").slice(0, 2_000);
  return head.length < text.length ? `${head}\n[… more: read it with jobs]` : head;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}
