import type { MemoryEntry } from "./schema.ts";

function time(iso: string | undefined): number {
  const t = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/** When the note was created, as a number for sorting (0 for an unreadable date). */
export function createdTime(entry: MemoryEntry): number {
  return time(entry.createdAt);
}

/** When the note was last used: its last recall, or its creation when never recalled. */
export function lastUsedTime(entry: MemoryEntry): number {
  return Math.max(time(entry.lastHitAt), createdTime(entry));
}

/**
 * Sorts newest first by `key`, without mutating. Equal times keep the later-stored note first:
 * notes are appended, so position breaks ties between notes written in the same millisecond.
 */
export function newestFirst(entries: readonly MemoryEntry[], key: (e: MemoryEntry) => number): MemoryEntry[] {
  return entries
    .map((entry, index) => ({ entry, index, t: key(entry) }))
    .sort((a, b) => b.t - a.t || b.index - a.index)
    .map((x) => x.entry);
}
