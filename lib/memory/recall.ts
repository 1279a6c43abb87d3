import { RECALL_MAX_MATCHES } from "./limits.ts";
import { createdTime, newestFirst } from "./recency.ts";
import type { MemoryEntry } from "./schema.ts";
import type { MemoryStore } from "./store.ts";
import { normalizeNoteText, notes } from "./text.ts";

export type RecallResult =
  | {
      ok: true;
      /** The store after the recall: every match has one more hit and `lastHitAt` = now. */
      entries: MemoryEntry[];
      /** How many notes matched in all. */
      matched: number;
      /** The newest matches, at most 15, newest first, as updated. */
      shown: MemoryEntry[];
      /** What the model reads. */
      message: string;
    }
  | { ok: false; message: string };

/** The query's words, lower-cased. */
export function queryTerms(query: string): string[] {
  const folded = normalizeNoteText(query).toLowerCase();
  return folded === "" ? [] : folded.split(" ");
}

/** True when every term appears somewhere in the note's text (case-insensitive substring). */
export function matchesAll(entry: MemoryEntry, terms: readonly string[]): boolean {
  const text = entry.text.toLowerCase();
  return terms.every((term) => text.includes(term));
}

/**
 * Finds the notes containing every word of `query` (AND: "migration seed order" should find the
 * one note about that, not every note with any of the words). Every match counts as a hit, as
 * the spec says, including matches beyond the 15 shown. Pure.
 */
export function recallEntries(entries: readonly MemoryEntry[], query: string, now: Date): RecallResult {
  const terms = queryTerms(query);
  if (terms.length === 0) {
    return { ok: false, message: "query is empty. Give a few distinctive words that the note would contain, e.g. \"migration seed\"." };
  }
  const at = now.toISOString();
  const hits: MemoryEntry[] = [];
  const updated = entries.map((entry) => {
    if (!matchesAll(entry, terms)) return entry;
    const hit = { ...entry, hits: entry.hits + 1, lastHitAt: at };
    hits.push(hit);
    return hit;
  });
  const matched = hits.length;
  const shown = newestFirst(hits, createdTime).slice(0, RECALL_MAX_MATCHES);
  const quoted = JSON.stringify(terms.join(" "));
  if (matched === 0) {
    return {
      ok: true,
      entries: [...entries],
      matched,
      shown,
      message: `Nothing in project memory matches ${quoted}: no note contains every one of those words. Try fewer or different words.`,
    };
  }
  const head =
    matched > shown.length
      ? `${notes(matched)} match ${quoted}; the ${shown.length} most recent (add words to narrow it down):`
      : `${notes(matched)} match${matched === 1 ? "es" : ""} ${quoted}:`;
  return { ok: true, entries: updated, matched, shown, message: [head, ...shown.map((e) => `(${e.kind}) ${e.text}`)].join("\n") };
}

/** `recallEntries` against the store; hits are persisted under its lock, nothing is written when nothing matched. */
export function recallNotes(store: MemoryStore, query: string): Promise<RecallResult> {
  return store.update<RecallResult>((entries) => {
    const result = recallEntries(entries, query, store.now());
    return result.ok && result.matched > 0 ? { entries: result.entries, result } : { result };
  });
}
