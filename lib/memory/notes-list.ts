import { MEMORY_BLOCK_MAX_ENTRIES, MEMORY_MAX_ENTRIES } from "./limits.ts";
import { rankNotes } from "./boot-block.ts";
import type { MemoryEntry } from "./schema.ts";
import { notes } from "./text.ts";

/**
 * The store for a person (`/notes`, `shiro memory list`): ranked as the agent sees them, with hit
 * counts, kinds aligned. Notes past the first 20 are marked as not loaded at start-up. Plain
 * text, no colour; ends without a newline.
 */
export function formatNotes(entries: readonly MemoryEntry[], opts: { path?: string } = {}): string {
  const where = opts.path ? ` (${opts.path})` : "";
  if (entries.length === 0) {
    return `Project memory is empty${where}. The agent adds notes with its remember tool as it learns about the project.`;
  }
  const ranked = rankNotes(entries);
  const hitsWidth = Math.max(4, ...ranked.map((e) => String(e.hits).length));
  const row = (e: MemoryEntry) => `${String(e.hits).padStart(hitsWidth)}  ${e.kind.padEnd(8)}  ${e.text}`;
  const lines = [`${notes(entries.length)} of ${MEMORY_MAX_ENTRIES} in project memory${where}`, "", `${"hits".padStart(hitsWidth)}  kind      text`];
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
