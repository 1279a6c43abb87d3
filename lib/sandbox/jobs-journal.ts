import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { readJsonFile } from "../fs/read-json.ts";

/**
 * `$SHIRO_HOME/jobs/`: the background jobs running outside the sandbox, one file per shiro that
 * started them (`<pid>-<start>.json`, written only by that shiro, so two shiros never overwrite
 * each other's entries). A shiro that ended without stopping its jobs (killed, crashed) leaves its
 * file, and the next start stops those still running and removes the file (reapOrphans). A process
 * is known by its id AND its start time, so a process id the system has since given to another
 * program is never touched; names are never looked at. (A group whose leader has exited is not
 * reaped: its id alone cannot tell it from a later one.) Sandboxed jobs are not written: they end
 * with the sandbox. The single shared `jobs.json` of earlier versions is still read and reaped.
 */
export function journalPath(shiroHome: string): string {
  return join(shiroHome, "jobs");
}

/** The shared file earlier versions wrote; reaped like an owner's file, then removed. */
const LEGACY = "jobs.json";

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

function read(file: string): JournalEntry[] {
  const result = readJsonFile(file, journalSchema);
  return result.status === "ok" ? result.value.jobs : [];
}

function write(file: string, jobs: readonly JournalEntry[]): void {
  try {
    if (jobs.length === 0) rmSync(file, { force: true });
    else {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeStateFileSync(file, JSON.stringify({ jobs }, null, 2) + "\n");
    }
  } catch {
    // The journal is a safety net for a crash; a shiro that cannot write it still stops its jobs at exit.
  }
}

/** This shiro, as the journal names the owner of a job. */
export function selfProcess(): Proc | undefined {
  const start = processStart(process.pid);
  return start === undefined ? undefined : { pid: process.pid, start };
}

/** The file of the shiro `owner` in the journal folder `dir`. */
export function ownerFile(dir: string, owner: Proc): string {
  return join(dir, `${owner.pid}-${owner.start.replace(/[^0-9A-Za-z]+/g, "_")}.json`);
}

/** Writes a job down (called as it starts), in its owner's file. */
export function journalAdd(dir: string, entry: JournalEntry): void {
  const file = ownerFile(dir, entry.owner);
  write(file, [...read(file), entry]);
}

/** Takes a job off (it ended, or was stopped); the owner's file goes with its last job. */
export function journalRemove(dir: string, owner: Proc, job: Proc): void {
  const file = ownerFile(dir, owner);
  const all = read(file);
  const rest = all.filter((e) => !(e.job.pid === job.pid && e.job.start === job.start));
  if (rest.length !== all.length) write(file, rest);
}

/**
 * At start: stops, with their whole process group, the jobs whose shiro is gone but which still
 * run (the same id and start time as written down), and removes that shiro's file; returns their
 * commands. The files of shiros still running (another window) are left alone. A file that cannot
 * be read is set aside (readJsonFile) and nothing in it is stopped.
 */
export async function reapOrphans(dir: string, stop: (pgid: number) => Promise<void>): Promise<string[]> {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    // no folder: no shiro has written a job
  }
  const files = [...names.map((name) => join(dir, name)), join(dirname(dir), LEGACY)];
  const reaped: string[] = [];
  for (const file of files) {
    const all = read(file);
    if (all.length === 0) continue;
    const kept: JournalEntry[] = [];
    for (const entry of all) {
      if (stillRunning(entry.owner)) kept.push(entry);
      else if (stillRunning(entry.job)) {
        await stop(entry.job.pid);
        reaped.push(entry.command);
      }
    }
    if (kept.length !== all.length) write(file, kept);
  }
  return reaped;
}
