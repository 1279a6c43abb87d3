import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool, type ToolContext } from "./define.ts";
import { HeadTailBuffer } from "../text/head-tail.ts";

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Kept from the start and the end of the output; together well under runTool's 30,000-character cut. */
const OUTPUT_HEAD_CHARS = 12_000;
const OUTPUT_TAIL_CHARS = 12_000;
/** How long a killed process group gets to exit after SIGTERM before it gets SIGKILL. */
const KILL_GRACE_MS = 300;
/** After the shell exits, how long to wait for background processes still holding its output open. */
const DRAIN_AFTER_EXIT_MS = 200;
/**
 * Variables that exist only for shiro and hold its credentials: no command the model runs needs
 * them, and `env` or `echo $SHIRO_API_KEY` would otherwise put the key in the tool output, the
 * session file and the next request. (OPENAI_API_KEY and the presets' variables stay: the user's
 * own programs and tests may use them.)
 */
const SHIRO_ONLY_SECRETS = ["SHIRO_API_KEY"];

/**
 * How the first line of a bash result starts, by how the command ended; the pruned-span digest
 * (lib/prune/digest.ts) reads them back. `Exit code 1`, `Command timed out after 120s; …`,
 * `Killed by SIGKILL.`, `Interrupted by the user; …`.
 */
export const BASH_EXITED = "Exit code ";
export const BASH_TIMED_OUT = "Command timed out after ";
export const BASH_KILLED = "Killed by ";
export const BASH_INTERRUPTED = "Interrupted by the user";

const schema = v.object({
  command: v.pipe(v.string(), v.minLength(1, "command must not be empty"), v.description("The command line, run by bash.")),
  timeout: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(`Milliseconds before the command is killed. Default ${DEFAULT_BASH_TIMEOUT_MS}, maximum ${MAX_BASH_TIMEOUT_MS}.`),
    ),
  ),
});

export const bashTool = defineTool({
  name: "bash",
  description:
    "Run a shell command with `bash -lc` in the working directory and get its exit code and combined stdout/stderr. " +
    "Each call starts a fresh shell: cd and exported variables do not carry over, so chain with && when needed. " +
    "No input can be typed, so use non-interactive flags (git --no-pager, -y). " +
    `Times out after ${DEFAULT_BASH_TIMEOUT_MS / 1000}s unless you pass timeout (ms, at most ${MAX_BASH_TIMEOUT_MS / 1000}s); ` +
    "a timed-out command is killed with all its child processes. Long output keeps its beginning and end. " +
    "Prefer read_file, grep, glob and list_dir over cat, grep, find and ls. Start servers in the background with " +
    "output to a file (cmd > /tmp/server.log 2>&1 &).",
  schema,
  mutates: true,
  subject: { kind: "command", of: (input) => input.command },
  defaultDecision: "ask",
  async execute(input, ctx) {
    if (ctx.signal.aborted) throw new ToolError("bash: not run, because the turn was interrupted before it started.");
    const requested = input.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
    const timeoutMs = Math.min(requested, MAX_BASH_TIMEOUT_MS);
    const run = await runInProcessGroup(input.command, ctx, timeoutMs);
    const clampNote =
      requested > MAX_BASH_TIMEOUT_MS
        ? `\n(timeout ${requested}ms is above the ${MAX_BASH_TIMEOUT_MS}ms maximum; used ${MAX_BASH_TIMEOUT_MS}ms)`
        : "";
    const body = run.output || "(no output)";
    const effects = "Its effects are unknown: check what it changed before running it again.";
    switch (run.end) {
      case "timeout":
        return {
          output: `${BASH_TIMED_OUT}${seconds(timeoutMs)}; it was killed with every process it started. ${effects}${clampNote}\n${body}`,
          summary: `timed out after ${seconds(timeoutMs)}`,
        };
      case "interrupted":
        return {
          output: `${BASH_INTERRUPTED}; the command was killed with every process it started. ${effects}\n${body}`,
          summary: "interrupted",
        };
      case "exited":
        return run.signal
          ? { output: `${BASH_KILLED}${run.signal}.${clampNote}\n${body}`, summary: `killed by ${run.signal}` }
          : { output: `${BASH_EXITED}${run.exitCode}${clampNote}\n${body}`, summary: `exit ${run.exitCode}` };
      default:
        return run.end satisfies never;
    }
  },
});

type RunResult = { end: "exited" | "timeout" | "interrupted"; exitCode: number | null; signal: string | null; output: string };

/**
 * Runs `bash -lc command` as the leader of a new process group (setsid), so that on timeout or
 * abort the whole tree, background jobs included, can be killed with one signal to the group.
 * Chunks go to ctx.onOutput as they arrive. Resolves once the shell has exited and, if it was
 * stopped, once its group is gone.
 */
async function runInProcessGroup(command: string, ctx: ToolContext, timeoutMs: number): Promise<RunResult> {
  const env = { ...process.env };
  for (const name of SHIRO_ONLY_SECRETS) delete env[name];
  const proc = Bun.spawn(["bash", "-lc", command], {
    cwd: ctx.cwd,
    env,
    detached: true, // setsid: the shell leads a new process group that can be killed as a whole
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = new HeadTailBuffer(OUTPUT_HEAD_CHARS, OUTPUT_TAIL_CHARS);
  const readers = [proc.stdout.getReader(), proc.stderr.getReader()] as const;
  const collect = (stream: "stdout" | "stderr") => (chunk: string) => {
    output.push(chunk);
    try {
      ctx.onOutput?.(stream, chunk);
    } catch {
      // a failing screen must not stop the command's output from being read
    }
  };
  const pumps = Promise.all([pump(readers[0], collect("stdout")), pump(readers[1], collect("stderr"))]);

  let end: RunResult["end"] = "exited";
  let stopping: Promise<void> | undefined;
  const stop = (reason: "timeout" | "interrupted") => {
    if (stopping) return;
    end = reason;
    stopping = killGroup(proc.pid);
  };
  const timer = setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("interrupted");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    await proc.exited;
    clearTimeout(timer); // a timeout or abort from now on would misreport a command that finished
    ctx.signal.removeEventListener("abort", onAbort);
    await stopping;
    await Promise.race([pumps, Bun.sleep(DRAIN_AFTER_EXIT_MS)]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    for (const reader of readers) reader.cancel().catch(() => {});
  }
  const signal = end === "exited" && proc.signalCode !== null ? String(proc.signalCode) : null;
  return { end, exitCode: proc.exitCode, signal, output: output.text() };
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

/** SIGTERM to the group, then SIGKILL to whatever is left after KILL_GRACE_MS. */
async function killGroup(pgid: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  for (let waited = 0; waited < KILL_GRACE_MS; waited += 20) {
    await Bun.sleep(20);
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, "SIGKILL");
}

/** Sends `signal` to every process in the group; false when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}
