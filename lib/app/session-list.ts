import type { Runtime } from "../agent/runtime.ts";
import { listSessions } from "../sessions/list.ts";
import { formatSessionTable, forksUnderParents, RECENT_SESSIONS, sessionRows } from "../sessions/list-format.ts";

/** A saved session a picker offers: its id, and a line with its prefix, age, title and size. */
export type SessionOption = { id: string; label: string };

/** This directory's sessions as a picker lists them, newest first, and a line for each damaged file skipped (`-r` alone, `/resume` alone). */
export function resumableSessions(runtime: Pick<Runtime, "home" | "workspace">): { options: SessionOption[]; warnings: string[] } {
  const listing = listSessions(runtime.home, { cwd: runtime.workspace.cwd, limit: RECENT_SESSIONS });
  const sessions = forksUnderParents(listing.sessions);
  const rows = sessionRows(sessions, { allIds: listing.allIds, now: new Date() });
  const table = formatSessionTable(rows, { showCwd: false }).split("\n");
  const options = sessions.map((summary, i) => ({ id: summary.id, label: table[i]! }));
  return { options, warnings: listing.warnings.map((w) => `warning: ${w}`) };
}

/** `/sessions`: this directory's, or (`all`) every directory's, newest first; `current` is marked. */
export function sessionsTable(runtime: Pick<Runtime, "home" | "workspace">, current: string, all: boolean): string {
  const listing = listSessions(runtime.home, all ? { all: true, limit: RECENT_SESSIONS } : { cwd: runtime.workspace.cwd, limit: RECENT_SESSIONS });
  const warnings = listing.warnings.map((w) => `warning: ${w}`);
  if (listing.sessions.length === 0) return [...warnings, all ? "No saved sessions yet." : "No saved sessions in this directory yet. /sessions --all lists every directory's."].join("\n");
  const rows = sessionRows(forksUnderParents(listing.sessions), { allIds: listing.allIds, now: new Date(), current });
  const table = formatSessionTable(rows, { userHome: runtime.workspace.userHome, showCwd: all });
  return [...warnings, table, "", "Resume one with /resume <id>, or /resume alone to pick."].join("\n");
}
