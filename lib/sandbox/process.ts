import { pipeStream } from "../fs/pipe-read.ts";

/** How a child ended: its exit code, or the signal that killed it. */
export type ChildExit = { exitCode: number | null; signal: string | null };

/**
 * A program shiro started for the model. It always leads a process group of its own, so `stop()`
 * can end it together with everything it started.
 */
export type Child = {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  /** Resolves when the program itself has exited (background processes it left may live on). */
  exited: Promise<ChildExit>;
  /** SIGTERM to the whole group, SIGKILL to what is left after a short grace; resolves when the group is gone. */
  stop(): Promise<void>;
  /** Its process id (and so its group's) when it runs on this machine; unset in the sandbox, whose processes end with it. */
  pid?: number;
};

export type SpawnOptions = {
  cwd: string;
  /** Laid over the runner's environment (which never holds the API key). */
  env?: Record<string, string>;
};

/**
 * Where commands run: in the sandbox, or directly on this machine. The tools only ever see this,
 * so every program they start goes through the same place in every mode.
 */
export type CommandRunner = {
  readonly sandboxed: boolean;
  /** Starts `argv[0]` (an absolute path, or a name looked up on the runner's PATH). Never throws: a failure to start comes back as a child that printed why and exited 127. */
  spawn(argv: readonly string[], opts: SpawnOptions): Child;
  /** Ends whatever the runner keeps alive (the sandbox and its background processes). */
  close(): void;
  /** Starts what the first command would wait for (the sandbox), in the background. */
  warm?(): void;
};

/** How long a stopped process group gets after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 300;

/**
 * Runs programs directly, as the user, each as the leader of a new process group (setsid).
 * `env` is the base environment (already without the key, see childEnv).
 */
export function createHostRunner(env: Record<string, string>): CommandRunner {
  return {
    sandboxed: false,
    spawn(argv, opts) {
      let proc: ReturnType<typeof Bun.spawn<"ignore", "pipe", "pipe">>;
      try {
        proc = Bun.spawn([...argv], {
          cwd: opts.cwd,
          env: { ...env, ...opts.env },
          detached: true, // setsid: the child leads a new process group that can be killed as a whole
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
      } catch (error) {
        return failedChild(`${argv[0]}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const exited = proc.exited.then(() => ({ exitCode: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) }));
      return { stdout: pipeStream(proc.stdout), stderr: pipeStream(proc.stderr), exited, stop: () => killGroup(proc.pid), pid: proc.pid };
    },
    close() {},
  };
}

/** A child that never ran: `message` on stderr, exit 127 (the shell's "command not found"). */
export function failedChild(message: string): Child {
  const bytes = new TextEncoder().encode(message.endsWith("\n") ? message : message + "\n");
  return {
    stdout: new ReadableStream({ start: (c) => c.close() }),
    stderr: new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }),
    exited: Promise.resolve({ exitCode: 127, signal: null }),
    stop: async () => {},
  };
}

/** SIGTERM to the group, then SIGKILL to whatever is left after KILL_GRACE_MS. */
export async function killGroup(pgid: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  for (let waited = 0; waited < KILL_GRACE_MS; waited += 20) {
    await Bun.sleep(20);
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, "SIGKILL");
}

/** Sends `signal` to every process in the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
