import { closeSync, constants, ftruncateSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { journalAdd, journalPath, journalRemove, processStart, selfProcess } from "./jobs-journal.ts";
import { signalGroup, type Child, type ChildExit } from "./process.ts";

/** The output a job keeps, in memory and in its file: the newest this many characters; older output is dropped. */
export const JOB_OUTPUT_CAP_CHARS = 1_000_000;
/** How much new output one read gives the model at most (its end; what is skipped is said). */
export const JOB_READ_CHARS = 8_000;

/** How long after a job exits its output file stays open for what is still on its way. */
const FILE_CLOSE_AFTER_EXIT_MS = 1_000;

export type JobState = { type: "running" } | { type: "exited"; exit: ChildExit } | { type: "killed" };

/** What the screen and the model see of a job. */
export type JobView = {
  id: number;
  command: string;
  startedAt: number;
  state: JobState;
  /** The last lines of its output. */
  lastLines: readonly string[];
  /** Where its output is kept (undefined before a session gave the table a folder). */
  file: string | undefined;
};

type Job = {
  id: number;
  command: string;
  startedAt: number;
  child: Child;
  state: JobState;
  /** The newest output in the chunks it came in, at least JOB_OUTPUT_CAP_CHARS of it when there is that much (`kept` characters); `total` counts every character ever produced. */
  chunks: string[];
  kept: number;
  total: number;
  /** How far (in `total`) the model has read. */
  read: number;
  file: string | undefined;
  /** The file, open for appending while the job may still write. */
  fd: number | undefined;
  fileChars: number;
  /** The journal's record of it (jobs outside the sandbox). */
  proc: { pid: number; start: string } | undefined;
  /** An end not yet told to the model. */
  endUntold: boolean;
  waiters: Set<() => void>;
};

export type JobTable = ReturnType<typeof createJobTable>;

/**
 * The session's background jobs (bash with `background: true`, or a command sent there with
 * ctrl-b). The bash tool starts the child and feeds its output in (`append`); the table keeps the
 * newest output in memory and in a file (`useDir`), reads new output for the model, stops jobs
 * with their whole process group, and writes the jobs outside the sandbox to the journal so a
 * shiro that crashed leaves them to be reaped at the next start (jobs-journal.ts).
 */
export function createJobTable(opts: { shiroHome: string; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const journal = journalPath(opts.shiroHome);
  const jobs = new Map<number, Job>();
  /** This shiro, as the journal knows it; looked up when the first job outside the sandbox starts. */
  let owner: ReturnType<typeof selfProcess>;
  let nextId = 1;
  let dir: string | undefined;
  const listeners = new Set<() => void>();
  /** The commands running in the foreground now, each with how it becomes a job (ctrl-b). */
  const foreground = new Set<() => boolean>();
  const changed = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // a failing screen must not stop a job
      }
    }
  };
  const wake = (job: Job) => {
    for (const waiter of job.waiters) waiter();
    job.waiters.clear();
  };
  const forget = (job: Job) => {
    if (job.proc && owner) journalRemove(journal, owner, job.proc);
    job.proc = undefined;
  };
  const fileFor = (id: number): { file?: string; fd?: number } => {
    if (!dir) return {};
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${id}.log`);
      // Appending (O_APPEND): after the file is cut back to nothing, writes start again at its start.
      return { file, fd: openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND, 0o600) };
    } catch {
      return {};
    }
  };
  const closeFile = (job: Job) => {
    if (job.fd === undefined) return;
    try {
      closeSync(job.fd);
    } catch {
      // already closed
    }
    job.fd = undefined;
  };

  /** The newest output, at most JOB_OUTPUT_CAP_CHARS. */
  const textOf = (job: Job) => job.chunks.join("").slice(-JOB_OUTPUT_CAP_CHARS);
  const append = (job: Job, chunk: string) => {
    job.total += chunk.length;
    job.chunks.push(chunk);
    job.kept += chunk.length;
    // Whole chunks are dropped from the front while what stays is still over the cap.
    while (job.chunks.length > 1 && job.kept - job.chunks[0]!.length >= JOB_OUTPUT_CAP_CHARS) job.kept -= job.chunks.shift()!.length;
    if (job.fd !== undefined) {
      try {
        // The file holds the newest output too: appended to, and written afresh once it passes twice the cap.
        if (job.fileChars + chunk.length > 2 * JOB_OUTPUT_CAP_CHARS) {
          const text = textOf(job);
          ftruncateSync(job.fd, 0);
          writeSync(job.fd, text);
          job.fileChars = text.length;
        } else {
          writeSync(job.fd, chunk);
          job.fileChars += chunk.length;
        }
      } catch {
        closeFile(job);
      }
    }
    wake(job);
  };

  const view = (job: Job): JobView => ({
    id: job.id,
    command: job.command,
    startedAt: job.startedAt,
    state: job.state,
    lastLines: job.chunks.slice(-8).join("").slice(-2_000).trimEnd().split("\n").slice(-5).filter((line) => line !== ""),
    file: job.file,
  });

  const stop = async (job: Job): Promise<boolean> => {
    if (job.state.type !== "running") return false;
    job.state = { type: "killed" };
    job.endUntold = false; // the model (or the user) stopped it: nothing to tell
    await job.child.stop();
    forget(job);
    closeFile(job);
    wake(job);
    changed();
    return true;
  };

  return {
    /** Where job output files go from now on (`sessions/<id>.jobs/`). */
    useDir(folder: string) {
      dir = folder;
    },
    /**
     * Makes `child` a job. `pid`: its process (group) id when it runs on this machine, written to
     * the journal; `seen`: output it printed before it became a job, which the model already has. Its output arrives through the returned `append`.
     */
    add(command: string, child: Child, how: { pid?: number; seen?: string } = {}): { id: number; append: (chunk: string) => void } {
      const id = nextId++;
      const start = how.pid === undefined ? undefined : processStart(how.pid);
      const proc = how.pid !== undefined && start !== undefined ? { pid: how.pid, start } : undefined;
      const job: Job = { file: undefined, fd: undefined, id, command, startedAt: now(), child, state: { type: "running" }, chunks: [], kept: 0, total: 0, read: 0, ...fileFor(id), fileChars: 0, proc, endUntold: false, waiters: new Set() };
      jobs.set(id, job);
      if (proc) owner ??= selfProcess();
      if (proc && owner) journalAdd(journal, { job: proc, owner, command });
      if (how.seen) {
        append(job, how.seen);
        job.read = job.total; // the call that became the job gave it to the model
      }
      void child.exited.then((exit) => {
        if (job.state.type !== "running") return;
        job.state = { type: "exited", exit };
        job.endUntold = true;
        forget(job);
        wake(job);
        changed();
        // What it printed last may still be on its way (its pipes drain): the file closes a little later.
        setTimeout(() => closeFile(job), FILE_CLOSE_AFTER_EXIT_MS).unref?.();
      });
      changed();
      return { id, append: (chunk) => append(job, chunk) };
    },
    /**
     * New output of job `id` since the model last read it (at most JOB_READ_CHARS, its end), after
     * waiting up to `waitMs` for some to arrive or for the job to end. undefined for an unknown id.
     */
    async read(id: number, waitMs: number, signal?: AbortSignal): Promise<{ text: string; skipped: number; state: JobState } | undefined> {
      const job = jobs.get(id);
      if (!job) return undefined;
      if (job.total === job.read && job.state.type === "running" && waitMs > 0 && !signal?.aborted) {
        await new Promise<void>((done) => {
          const finish = () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", finish);
            job.waiters.delete(finish);
            done();
          };
          const timer = setTimeout(finish, waitMs);
          signal?.addEventListener("abort", finish, { once: true });
          job.waiters.add(finish);
        });
      }
      // What arrived in the same moment is read together.
      await Bun.sleep(0);
      const fresh = job.total - job.read;
      const all = textOf(job);
      const text = all.slice(all.length - Math.min(fresh, all.length)).slice(-JOB_READ_CHARS);
      job.read = job.total;
      if (job.state.type !== "running") job.endUntold = false;
      return { text, skipped: fresh - text.length, state: job.state };
    },
    /** Stops job `id` with its process group: "stopped", "ended" (it had already ended) or "unknown". */
    async kill(id: number): Promise<"stopped" | "ended" | "unknown"> {
      const job = jobs.get(id);
      if (!job) return "unknown";
      return (await stop(job)) ? "stopped" : "ended";
    },
    /** Every job of the session, oldest first. */
    list: (): JobView[] => [...jobs.values()].map(view),
    /** The jobs still running. */
    running: (): JobView[] => [...jobs.values()].filter((job) => job.state.type === "running").map(view),
    /** Jobs that ended on their own since the model last heard of them: each is returned once. */
    takeEnded(): JobView[] {
      const ended = [...jobs.values()].filter((job) => job.endUntold);
      for (const job of ended) job.endUntold = false;
      return ended.map(view);
    },
    /** Stops every running job with its group (at exit); returns their commands. */
    async stopAll(): Promise<string[]> {
      const running = [...jobs.values()].filter((job) => job.state.type === "running");
      await Promise.all(running.map(stop));
      return running.map((job) => job.command);
    },
    /**
     * A command running in the foreground (bash) that ctrl-b may send to the background: `move`
     * makes it a job and ends the call, false when it is too late. Returns the call's way out.
     */
    foreground(_command: string, move: () => boolean): () => void {
      foreground.add(move);
      return () => foreground.delete(move);
    },
    /** ctrl-b: every command running in the foreground goes on as a job; how many did. */
    sendToBackground(): number {
      let moved = 0;
      for (const move of [...foreground]) if (move()) moved++;
      return moved;
    },
    /**
     * On the way out when there is no time to wait (process exit, a signal): every running job
     * on this machine gets SIGKILL to its group now; sandboxed ones end with the sandbox.
     */
    killNow() {
      for (const job of jobs.values()) {
        if (job.state.type !== "running") continue;
        job.state = { type: "killed" };
        if (job.child.pid !== undefined) signalGroup(job.child.pid, "SIGKILL");
        else void job.child.stop();
        forget(job);
        closeFile(job);
      }
    },
    /** Calls `listener` whenever a job starts or ends (the live area redraws). */
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
