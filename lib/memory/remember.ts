import { MEMORY_MAX_ENTRIES, MEMORY_TEXT_MAX_CHARS } from "./limits.ts";
import { MemoryKind, type MemoryEntry, type NoteDraft } from "./schema.ts";
import type { MemoryStore } from "./store.ts";
import { normalizeNoteText, noteKey } from "./text.ts";

export type CheckedNote = { ok: true; note: NoteDraft } | { ok: false; problem: "empty" | "too-long"; message: string };

/** Normalizes a proposed note and applies the per-note caps. Shared by `remember` and compaction. */
export function checkNote(draft: NoteDraft): CheckedNote {
  const text = normalizeNoteText(draft.text);
  if (text.length === 0) {
    return { ok: false, problem: "empty", message: 'text is empty. Write the note as one self-contained line, e.g. "Tests run with `bun test`, not `npm test`."' };
  }
  if (text.length > MEMORY_TEXT_MAX_CHARS) {
    return {
      ok: false,
      problem: "too-long",
      message: `text is ${text.length} characters; the limit is ${MEMORY_TEXT_MAX_CHARS}. Shorten it to one line, or split separate points into separate notes.`,
    };
  }
  return { ok: true, note: { kind: draft.kind, text } };
}

export type AddResult =
  | { ok: true; entry: MemoryEntry; entries: MemoryEntry[] }
  | { ok: false; problem: "empty" | "too-long" | "duplicate" | "full"; message: string };

/**
 * Adds one note, or says why not: empty or over 400 characters (after whitespace folding), a
 * duplicate of an existing note (ignoring case and whitespace), or a full store. Pure; never
 * mutates `entries`. A duplicate is checked before fullness: "already recorded" is the more useful answer.
 */
export function addEntry(entries: readonly MemoryEntry[], draft: NoteDraft, make: { now: Date; id: string }): AddResult {
  const checked = checkNote(draft);
  if (!checked.ok) return checked;
  const key = noteKey(checked.note.text);
  const existing = entries.find((e) => noteKey(e.text) === key);
  if (existing) {
    return { ok: false, problem: "duplicate", message: `this is already recorded as (${existing.kind}) ${existing.text} — nothing to add.` };
  }
  if (entries.length >= MEMORY_MAX_ENTRIES) {
    return {
      ok: false,
      problem: "full",
      message:
        `project memory is full (${entries.length} of ${MEMORY_MAX_ENTRIES} notes). To make room, forget notes that are wrong or stale ` +
        `(forget { text }), or ask the user to run /memory, which merges notes that were never recalled.`,
    };
  }
  const entry: MemoryEntry = { id: make.id, kind: checked.note.kind, text: checked.note.text, createdAt: make.now.toISOString(), hits: 0 };
  return { ok: true, entry, entries: [...entries, entry] };
}

/** `addEntry` against the store, under its lock. */
export function rememberNote(store: MemoryStore, draft: NoteDraft): Promise<AddResult> {
  return store.update<AddResult>((entries) => {
    const result = addEntry(entries, draft, { now: store.now(), id: store.newId() });
    return result.ok ? { entries: result.entries, result } : { result };
  });
}
