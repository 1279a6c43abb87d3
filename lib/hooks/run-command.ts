import { killGroup } from "../sandbox/process.ts";

/** Most of a hook's stdout or stderr that is kept; the rest is dropped, with a note. */
const MAX_OUTPUT_CHARS = 100_000;

/** How one hook command ended. */
export type CommandRun = {
  /** The exit code, or null when it was killed (timeout, interrupt) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Why it could not start, when it could not. */
  failedToStart?: string;
};

export type RunCommandOptions = {
  cwd: string;
  env: Record<string, string>;
  timeoutS: number;
  signal?: AbortSignal;
};

/**
 * Runs one hook command through `sh -c`, as the user, outside the sandbox (a hook is the user's own
 * policy), with `input` on stdin. It leads its own process group, so a timeout or an interrupt ends
 * it together with everything it started.
 */
export async function runHookCommand(command: string, input: string, options: RunCommandOptions): Promise<CommandRun> {
  const started = performance.now();
  let proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  try {
    proc = Bun.spawn(["/bin/sh", "-c", command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (error) {
    return { exitCode: null, stdout: "", stderr: "", timedOut: false, durationMs: 0, failedToStart: (error as Error).message };
  }
  try {
    proc.stdin.write(input);
    await proc.stdin.end();
  } catch {
    // A hook that does not read its input closes the pipe early: not an error.
  }
  let timedOut = false;
  const stop = () => void killGroup(proc.pid);
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutS * 1000);
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    const out = new CappedReader(proc.stdout);
    const err = new CappedReader(proc.stderr);
    await proc.exited;
    // A process the hook left behind may hold its pipes open: read what is there, then stop.
    const drained = await Promise.race([Promise.all([out.done, err.done]).then(() => true), Bun.sleep(PIPE_GRACE_MS).then(() => false)]);
    if (!drained) await Promise.all([out.cancel(), err.cancel()]);
    const killed = proc.signalCode !== null;
    return { exitCode: killed ? null : proc.exitCode, stdout: out.text(), stderr: err.text(), timedOut, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** How long a hook's pipes are read after it exited, for output still on its way. */
const PIPE_GRACE_MS = 500;

/** Reads a stream to its end in the background, keeping at most MAX_OUTPUT_CHARS. */
class CappedReader {
  private readonly decoder = new TextDecoder();
  private readonly reader: { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
  private chunks = "";
  private cut = false;
  readonly done: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
    this.done = this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        if (this.chunks.length >= MAX_OUTPUT_CHARS) this.cut = true; // keep draining so the hook never blocks on a full pipe
        else this.chunks += this.decoder.decode(value, { stream: true });
      }
    } catch {
      // cancelled
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  text(): string {
    const text = this.chunks + this.decoder.decode();
    return text.length > MAX_OUTPUT_CHARS || this.cut ? text.slice(0, MAX_OUTPUT_CHARS) + "\n[hook output cut]" : text;
  }
}
