import type { MemoryEntry } from "./schema.ts";
import type { MemoryStore } from "./store.ts";
import { normalizeNoteText, notes } from "./text.ts";

export type ForgetResult =
  | { ok: true; entries: MemoryEntry[]; removed: MemoryEntry[]; message: string }
  | { ok: false; message: string };

/**
 * Removes every note whose text contains `text`, ignoring case and whitespace differences (the
 * same folding notes get when stored), so a note can be forgotten by quoting part of it as shown.
 * The message lists what was removed, so a too-broad match is visible and can be re-remembered. Pure.
 */
export function forgetEntries(entries: readonly MemoryEntry[], text: string): ForgetResult {
  const needle = normalizeNoteText(text).toLowerCase();
  if (needle === "") return { ok: false, message: "text is empty. Give part of the note to remove, as it appears in memory." };
  const removed = entries.filter((e) => normalizeNoteText(e.text).toLowerCase().includes(needle));
  if (removed.length === 0) {
    return { ok: true, entries: [...entries], removed, message: `No note contains ${JSON.stringify(needle)}; nothing was forgotten.` };
  }
  const kept = entries.filter((e) => !removed.includes(e));
  return {
    ok: true,
    entries: kept,
    removed,
    message: [`Forgot ${notes(removed.length)}:`, ...removed.map((e) => `(${e.kind}) ${e.text}`)].join("\n"),
  };
}

/** `forgetEntries` against the store, under its lock. Also what `shiro memory forget <text>` runs. */
export function forgetNotes(store: MemoryStore, text: string): Promise<ForgetResult> {
  return store.update<ForgetResult>((entries) => {
    const result = forgetEntries(entries, text);
    return result.ok && result.removed.length > 0 ? { entries: result.entries, result } : { result };
  });
}
