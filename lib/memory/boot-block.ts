import { MEMORY_BLOCK_MAX_ENTRIES } from "./limits.ts";
import { lastUsedTime } from "./recency.ts";
import type { MemoryEntry } from "./schema.ts";

/**
 * One line, as the issue words it. The spec's code block wraps it after "verify anything"; that
 * is line wrapping of the document, not part of the text — the issue quotes the same header as one sentence.
 */
export const MEMORY_BLOCK_HEADER =
  "What you learned about this project in earlier sessions. Trust it, but verify anything that contradicts what you can see in the code now:";

/**
 * Notes ordered by hit count, most first; equal counts newest first, where a note's time is its
 * last recall or, never recalled, its creation. Pure; does not mutate.
 */
export function rankNotes(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return entries
    .map((entry, index) => ({ entry, index, t: lastUsedTime(entry) }))
    .sort((a, b) => b.entry.hits - a.entry.hits || b.t - a.t || b.index - a.index)
    .map((x) => x.entry);
}

/**
 * The system-prompt block: the header, then the top 20 ranked notes as `- (kind) text`, a note
 * `marks` names followed by its mark (`[may be stale: …]`, stale.ts). An empty
 * store gives "" (no block at all). Pass it as `buildInstructions({ memory })`.
 */
export function renderMemoryBlock(entries: readonly MemoryEntry[], marks: ReadonlyMap<MemoryEntry, string> = new Map()): string {
  if (entries.length === 0) return "";
  const lines = rankNotes(entries)
    .slice(0, MEMORY_BLOCK_MAX_ENTRIES)
    .map((e) => `- (${e.kind}) ${e.text}${marks.has(e) ? `  ${marks.get(e)}` : ""}`);
  return [MEMORY_BLOCK_HEADER, ...lines].join("\n");
}
