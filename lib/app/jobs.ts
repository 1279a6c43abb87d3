import { journalPath, reapOrphans, killGroup, type JobTable } from "../sandbox/index.ts";

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
