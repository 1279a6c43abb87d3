import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { readJsonFile } from "../fs/read-json.ts";

/**
 * `$SHIRO_HOME/jobs.json`: the background jobs running outside the sandbox, each with the shiro
 * that started it. A shiro that ended without stopping its jobs (killed, crashed) leaves them
 * here, and the next start stops those still running (reapOrphans). A process is known by its
 * id AND its start time, so a process id the system has since given to another program is never
 * touched; names are never looked at. (A group whose leader has exited is not reaped: its id alone
 * cannot tell it from a later one.) Sandboxed jobs are not written: they end with the sandbox.
 */
export function journalPath(shiroHome: string): string {
  return join(shiroHome, "jobs.json");
}

/** A process as the journal knows it: its id and when it started (the system's clock ticks since boot). */
const processSchema = v.object({ pid: v.pipe(v.number(), v.integer(), v.minValue(2)), start: v.string() });
const entrySchema = v.object({ job: processSchema, owner: processSchema, command: v.string() });
const journalSchema = v.object({ jobs: v.array(entrySchema) });
export type JournalEntry = v.InferOutput<typeof entrySchema>;
type Proc = v.InferOutput<typeof processSchema>;

/**
 * When process `pid` started, as a string to compare; undefined when it does not exist. Linux:
 * field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses).
 * Elsewhere, `ps -o lstart=`.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    if (process.platform === "linux") return undefined;
  }
  try {
    const ps = Bun.spawnSync(["ps", "-o", "lstart=", "-p", String(pid)], { stdout: "pipe", stderr: "ignore" });
    const text = ps.stdout.toString().trim();
    return ps.exitCode === 0 && text ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `proc` is still the process the journal wrote down. */
function stillRunning(proc: Proc): boolean {
  return processStart(proc.pid) === proc.start;
}

function read(path: string): JournalEntry[] {
  const result = readJsonFile(path, journalSchema);
  return result.status === "ok" ? result.value.jobs : [];
}

function write(path: string, jobs: readonly JournalEntry[]): void {
  try {
    writeStateFileSync(path, JSON.stringify({ jobs }, null, 2) + "\n");
  } catch {
    // The journal is a safety net for a crash; a shiro that cannot write it still stops its jobs at exit.
  }
}

/** This shiro, as the journal names the owner of a job. */
export function selfProcess(): Proc | undefined {
  const start = processStart(process.pid);
  return start === undefined ? undefined : { pid: process.pid, start };
}

/** Writes a job down (called as it starts). Entries of owners that are gone and whose job is gone too are dropped on the way. */
export function journalAdd(path: string, entry: JournalEntry): void {
  write(path, [...read(path).filter((e) => stillRunning(e.owner) || stillRunning(e.job)), entry]);
}

/** Takes a job off (it ended, or was stopped). */
export function journalRemove(path: string, job: Proc): void {
  const all = read(path);
  const rest = all.filter((e) => !(e.job.pid === job.pid && e.job.start === job.start));
  if (rest.length !== all.length) write(path, rest);
}

/**
 * At start: stops, with their whole process group, the jobs whose shiro is gone but which still
 * run (the same id and start time as written down); returns their commands. Entries of shiros
 * still running (another window) are kept.
 */
export async function reapOrphans(path: string, stop: (pgid: number) => Promise<void>): Promise<string[]> {
  const all = read(path);
  if (all.length === 0) return [];
  const reaped: string[] = [];
  const kept: JournalEntry[] = [];
  for (const entry of all) {
    if (stillRunning(entry.owner)) kept.push(entry);
    else if (stillRunning(entry.job)) {
      await stop(entry.job.pid);
      reaped.push(entry.command);
    }
  }
  write(path, kept);
  return reaped;
}
