import type { SessionSummary } from "./schema.ts";
import { shortestUniquePrefix } from "./prefix.ts";
import { titleFromPrompt } from "./title.ts";
import { OUTCOME_MARKS, type SessionOutcome } from "./outcome.ts";

/** How many sessions /sessions shows. */
export const RECENT_SESSIONS = 15;

/** `current`: the session open in the loop that lists them (`/sessions`), marked on its row. */
export type SessionRow = { prefix: string; age: string; title: string; messages: number; cwd: string; current?: boolean; outcome?: SessionOutcome };

/** What ends the row of the session open now, in `/sessions`. */
export const CURRENT_MARK = "(this session)";

/** "just now", "3m ago", "2h ago", "5d ago". A time in the future (clock skew) reads "just now". */
export function formatAge(iso: string, now: Date): string {
  const seconds = Math.floor((now.getTime() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/**
 * One row per session; prefixes are unique among `allIds` (every session on disk, not just these),
 * and all as long as the longest of them, so the column reads as one list of ids (sessions made
 * within a minute share their first nine or ten characters). `current`: the id of the session open
 * now, whose row is marked (the interactive loop's `/sessions`; the shell's listing has none).
 */
export function sessionRows(sessions: readonly SessionSummary[], opts: { allIds: readonly string[]; now: Date; current?: string }): SessionRow[] {
  const length = Math.max(0, ...sessions.map((s) => shortestUniquePrefix(s.id, opts.allIds).length));
  const depth = forkDepths(sessions);
  return sessions.map((s) => ({
    prefix: s.id.slice(0, length),
    age: formatAge(s.updatedAt, opts.now),
    // A title shiro wrote is already one short line; one edited by hand may not be. A fork listed under its parent is marked ↳.
    title: "  ".repeat(Math.max(0, (depth.get(s.id) ?? 0) - 1)) + (depth.get(s.id) ? "↳ " : "") + (titleFromPrompt(s.title) || "(untitled)"),
    messages: s.messageCount,
    cwd: s.cwd,
    ...(s.outcome ? { outcome: s.outcome } : {}),
    ...(s.id === opts.current ? { current: true } : {}),
  }));
}

/**
 * The sessions with each fork moved under its parent (when the parent is listed), newest first
 * otherwise: the order every listing shows them in (`shiro sessions list`, `/sessions`, the pickers).
 */
export function forksUnderParents<T extends Pick<SessionSummary, "id" | "forkedFrom">>(sessions: readonly T[]): T[] {
  const listed = new Set(sessions.map((s) => s.id));
  const children = new Map<string, T[]>();
  for (const s of sessions) {
    if (s.forkedFrom && listed.has(s.forkedFrom) && s.forkedFrom !== s.id) children.set(s.forkedFrom, [...(children.get(s.forkedFrom) ?? []), s]);
  }
  const out: T[] = [];
  const seen = new Set<string>();
  const add = (s: T) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    out.push(s);
    for (const child of children.get(s.id) ?? []) add(child);
  };
  for (const s of sessions) if (!(s.forkedFrom && listed.has(s.forkedFrom))) add(s);
  for (const s of sessions) add(s); // a cycle of forks (hand-edited files) is still listed
  return out;
}

/** How deep each listed fork sits under listed parents (0: not under one). */
function forkDepths(sessions: readonly SessionSummary[]): Map<string, number> {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const depths = new Map<string, number>();
  for (const s of sessions) {
    let depth = 0;
    for (let at = s.forkedFrom ? byId.get(s.forkedFrom) : undefined; at && depth < sessions.length; at = at.forkedFrom ? byId.get(at.forkedFrom) : undefined) depth++;
    depths.set(s.id, depth);
  }
  return depths;
}

/**
 * The table `/sessions` and `shiro sessions list` print, one line per row, no trailing newline:
 *   0193ab2c  3m ago  why does the pagination test fail?   8 msgs  ~/project
 * with a column of outcomes after the counts when a row has one (`failed (no answer)`, outcome.ts).
 * `userHome` shortens paths under it to "~". `showCwd: false` drops the last column (a listing
 * already filtered to one directory). The current session's row ends with CURRENT_MARK.
 */
export function formatSessionTable(rows: readonly SessionRow[], opts: { userHome?: string; showCwd?: boolean } = {}): string {
  if (rows.length === 0) return "";
  const width = (pick: (r: SessionRow) => string) => Math.max(...rows.map((r) => Array.from(pick(r)).length));
  const w = { prefix: width((r) => r.prefix), age: width((r) => r.age), title: width((r) => r.title), count: width((r) => String(r.messages)) };
  // Numbers right-aligned, the unit after them: "12 msgs" over " 1 msg ".
  const counts = rows.map((r) => `${String(r.messages).padStart(w.count)} ${r.messages === 1 ? "msg " : "msgs"}`);
  // A column of outcomes only when a row has one: `failed (no answer)`, `last turn failed` (outcome.ts).
  const marks = rows.some((r) => r.outcome) ? rows.map((r) => (r.outcome ? OUTCOME_MARKS[r.outcome] : "")) : undefined;
  const markWidth = Math.max(0, ...(marks ?? []).map((m) => m.length));
  return rows
    .map((r, i) => {
      const cells = [r.prefix.padEnd(w.prefix), r.age.padEnd(w.age), padChars(r.title, w.title), counts[i]!];
      if (marks) cells.push(marks[i]!.padEnd(markWidth));
      if (opts.showCwd !== false) cells.push(tildify(r.cwd, opts.userHome));
      if (r.current) cells.push(CURRENT_MARK);
      return cells.join("  ").trimEnd();
    })
    .join("\n");
}

export type SessionJson = {
  id: string;
  title: string;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Of the input tokens, those served from the provider's prompt cache; null when it never reported any. */
  cachedInputTokens: number | null;
  /** null when the session is unpriced. */
  costUsd: number | null;
  forkedFrom: string | null;
  /** How its runs went when its newest prompt got no answer: "no-answer" or "last-turn-failed" (outcome.ts); null: answered. */
  outcome: SessionOutcome | null;
};

/** The `--json` shape: every field present (null, not missing), so scripts can rely on it. */
export function sessionJson(s: SessionSummary): SessionJson {
  return {
    id: s.id,
    title: s.title,
    cwd: s.cwd,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    messageCount: s.messageCount,
    provider: s.provider,
    model: s.model,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    cachedInputTokens: s.cachedInputTokens ?? null,
    // Dollars to a millionth of a cent, as the headless result has them, not the float noise of adding prices.
    costUsd: s.costUsd === undefined ? null : Math.round(s.costUsd * 1e8) / 1e8,
    forkedFrom: s.forkedFrom ?? null,
    outcome: s.outcome ?? null,
  };
}

function padChars(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - Array.from(text).length));
}

function tildify(path: string, home: string | undefined): string {
  if (!home) return path;
  if (path === home) return "~";
  return path.startsWith(home.endsWith("/") ? home : home + "/") ? "~/" + path.slice(home.replace(/\/$/, "").length + 1) : path;
}
