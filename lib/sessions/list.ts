import type { SessionSummary } from "./schema.ts";
import { sessionPath } from "./paths.ts";
import { readSessionSummary } from "./read-summary.ts";
import { listSessionIds } from "./store.ts";

export type ListOptions = {
  /** Only sessions started in exactly this directory. Ignored when `all` is set. */
  cwd?: string;
  all?: boolean;
  /** At most this many, after sorting. */
  limit?: number;
};

export type SessionListing = {
  /** Newest activity first (updatedAt, then id). */
  sessions: SessionSummary[];
  /** One line per file that was skipped, naming it and saying what to do. */
  warnings: string[];
  /** Every session id on disk, for shortestUniquePrefix: prefixes must be unique among all of them. */
  allIds: string[];
};

/**
 * Lists sessions without reading their messages (see read-summary.ts), so a thousand sessions
 * list in milliseconds. A corrupt or unreadable file is skipped with a warning, never a crash.
 */
export function listSessions(home: string, opts: ListOptions = {}): SessionListing {
  const allIds = listSessionIds(home);
  const sessions: SessionSummary[] = [];
  const warnings: string[] = [];
  for (const id of allIds) {
    const path = sessionPath(home, id);
    const result = readSessionSummary(path);
    if (result.status === "missing") continue; // deleted while we listed
    if (result.status === "corrupt") {
      warnings.push(corruptWarning(path, result.reason));
      continue;
    }
    if (result.summary.id !== id) {
      warnings.push(corruptWarning(path, `the id inside (${result.summary.id}) does not match the file name`));
      continue;
    }
    if (!opts.all && opts.cwd !== undefined && result.summary.cwd !== opts.cwd) continue;
    sessions.push(result.summary);
  }
  sessions.sort(newestFirst);
  return { sessions: opts.limit === undefined ? sessions : sessions.slice(0, Math.max(0, opts.limit)), warnings, allIds };
}

/**
 * The newest session whose cwd is exactly `cwd`. With `withMessages` (what `shiro -c` continues),
 * the newest that holds a message: one taken back to nothing (every turn undone) has nothing to
 * continue, as its exit message said; it stays listed, and `-r` still opens it. `onSkipped` gets
 * the warning of each damaged file the listing left out.
 */
export function newestForCwd(home: string, cwd: string, opts: { withMessages?: boolean; onSkipped?: (warning: string) => void } = {}): SessionSummary | undefined {
  const { sessions, warnings } = listSessions(home, { cwd, ...(opts.withMessages ? {} : { limit: 1 }) });
  // A damaged file may have been the newest: whoever picks "the newest" says it was left out.
  for (const warning of warnings) opts.onSkipped?.(warning);
  return opts.withMessages ? sessions.find((session) => session.messageCount > 0) : sessions[0];
}

export function corruptWarning(path: string, reason: string): string {
  return `skipped ${path}: ${reason}. Fix or delete that file; other sessions are unaffected.`;
}

function newestFirst(a: SessionSummary, b: SessionSummary): number {
  const byTime = Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
