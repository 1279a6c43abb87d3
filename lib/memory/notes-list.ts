import { MEMORY_BLOCK_MAX_ENTRIES, MEMORY_MAX_ENTRIES } from "./limits.ts";
import { rankNotes } from "./boot-block.ts";
import type { MemoryEntry } from "./schema.ts";
import { notes } from "./text.ts";

/**
 * The store for a person (`/notes`, `shiro memory list`): ranked as the agent sees them, with hit
 * counts, each note's age when `now` is given, kinds aligned, and a note's mark (`[may be stale: …]`) after it. Notes past the first 20 are marked as not loaded at start-up. Plain
 * text, no colour; ends without a newline.
 */
export function formatNotes(entries: readonly MemoryEntry[], opts: { path?: string; marks?: ReadonlyMap<MemoryEntry, string>; now?: Date } = {}): string {
  const where = opts.path ? ` (${opts.path})` : "";
  if (entries.length === 0) {
    return `Project memory is empty${where}. The agent adds notes with its remember tool as it learns about the project.`;
  }
  const ranked = rankNotes(entries);
  const hitsWidth = Math.max(4, ...ranked.map((e) => String(e.hits).length));
  const now = opts.now;
  const age = (e: MemoryEntry) => (now ? `${ageOf(e.createdAt, now).padEnd(5)}  ` : "");
  const mark = (e: MemoryEntry) => (opts.marks?.has(e) ? `  ${opts.marks.get(e)}` : "");
  const row = (e: MemoryEntry) => `${String(e.hits).padStart(hitsWidth)}  ${age(e)}${e.kind.padEnd(8)}  ${e.text}${mark(e)}`;
  const lines = [`${notes(entries.length)} of ${MEMORY_MAX_ENTRIES} in project memory${where}`, "", `${"hits".padStart(hitsWidth)}  ${now ? "age    " : ""}kind      text`];
  lines.push(...ranked.slice(0, MEMORY_BLOCK_MAX_ENTRIES).map(row));
  if (ranked.length > MEMORY_BLOCK_MAX_ENTRIES) {
    lines.push("", `Not loaded at start-up (found with recall):`, ...ranked.slice(MEMORY_BLOCK_MAX_ENTRIES).map(row));
  }
  return lines.join("\n");
}

/** `shiro memory list --json`: one JSON document, the notes in stored order with every field. */
export function formatNotesJson(entries: readonly MemoryEntry[], path: string): string {
  return JSON.stringify({ path, count: entries.length, entries });
}

/** A note's age: `today`, `3d`, `5w`, `8mo`, `2y` (`?` for an unreadable date). */
function ageOf(iso: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(iso)) / 86_400_000);
  if (!Number.isFinite(days)) return "?";
  if (days < 1) return "today";
  if (days < 14) return `${days}d`;
  if (days < 60) return `${Math.floor(days / 7)}w`;
  if (days < 730) return `${Math.floor(days / 30)}mo`;
  return `${Math.floor(days / 365)}y`;
}
