import { journalPath, reapOrphans, killGroup, type JobTable, type JobView } from "../sandbox/index.ts";
import { elapsed, stateWords } from "../tools/jobs.ts";

/**
 * At start: the background jobs a shiro that ended without stopping them (killed, crashed) left
 * running outside the sandbox are stopped with their process groups (lib/sandbox/jobs-journal.ts);
 * a notice for each.
 */
export async function reapLeftJobs(home: string): Promise<string[]> {
  const reaped = await reapOrphans(journalPath(home), killGroup);
  return reaped.map((command) => `stopped a background job an earlier shiro left running (it ended without stopping it): ${command}`);
}

/** At the end of a run: every job still running is stopped with its group; the line that says so. */
export async function jobsAtExit(jobs: JobTable): Promise<string | undefined> {
  const stopped = await jobs.stopAll();
  if (stopped.length === 0) return undefined;
  const list = stopped.length > 3 ? `${stopped.slice(0, 3).join(", ")} and ${stopped.length - 3} more` : stopped.join(", ");
  return `stopped ${stopped.length === 1 ? "1 background job" : `${stopped.length} background jobs`} with every process ${stopped.length === 1 ? "it" : "they"} started: ${list}`;
}

/** The live area's line while jobs run: `⟳ 2 jobs · npm run dev (1m12s) · npm test (4s)`; undefined with none. */
export function runningJobsLine(running: readonly JobView[], now = Date.now()): string | undefined {
  if (running.length === 0) return undefined;
  const each = running.map((job) => `${oneLine(job.command, 40)} (${elapsed(now - job.startedAt)})`);
  return [`⟳ ${running.length === 1 ? "1 job" : `${running.length} jobs`}`, ...each].join(" · ");
}

/** `/jobs`: each job, its state, where its output is, and its last lines. */
export function jobsListing(all: readonly JobView[], now = Date.now()): string[] {
  if (all.length === 0) return ["No background jobs in this session (the model starts them with bash background: true; ctrl-b sends a running command there)."];
  return all.flatMap((job) => [
    `job ${job.id} · ${stateWords(job.state, job.startedAt, now)} · ${oneLine(job.command, 80)}`,
    ...job.lastLines.map((line) => `    ${oneLine(line, 120)}`),
    ...(job.file ? [`    output: ${job.file}`] : []),
  ]);
}

/** `/kill <id>`: what to print. */
export async function killJob(jobs: JobTable, arg: string): Promise<string> {
  const id = Number(arg.trim().replace(/^#/, ""));
  if (!Number.isInteger(id) || id < 1) return `usage: /kill <id>, the job's number as /jobs lists it${arg.trim() ? ` (not "${oneLine(arg.trim(), 20)}")` : ""}.`;
  const outcome = await jobs.kill(id);
  if (outcome === "unknown") return `There is no job ${id}: /jobs lists them.`;
  return outcome === "stopped" ? `Stopped job ${id} with every process it started.` : `Job ${id} had already ended.`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

/** What the session service offers of its jobs (lib/app/session.ts), on the runtime in use at each call. */
export function sessionJobs(jobs: () => JobTable) {
  return {
    /** The session's background jobs (bash `background: true`, ctrl-b; /jobs, /kill). */
    jobs,
    /** `/jobs`'s lines. */
    jobsListing: () => jobsListing(jobs().list()),
    /** `/kill <id>`: what to print. */
    killJob: (arg: string) => killJob(jobs(), arg),
    /** The live area's line about running jobs, if any. */
    runningJobsLine: () => runningJobsLine(jobs().running()),
    /** At the end of a run: stops every job still running with its process group; the line saying so, if any. */
    stopJobs: () => jobsAtExit(jobs()),
  };
}
