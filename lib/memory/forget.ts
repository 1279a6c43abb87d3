import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool } from "../tools/define.ts";
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

const schema = v.object({
  text: v.pipe(v.string(), v.description("Part of the note's text; every note containing it is removed (case-insensitive).")),
});

export function createForgetTool(store: MemoryStore) {
  return defineTool({
    name: "forget",
    description:
      "Remove notes from this project's memory: every note whose text contains the given text (case-insensitive). Use it when a " +
      "note turned out wrong or stale, then remember the correction. Be specific: a short text can match several notes. " +
      "The result lists what was removed.",
    schema,
    mutates: false, // writes only shiro's own store, never the user's files
    subject: { kind: "text", of: (input) => input.text },
    defaultDecision: "allow",
    async execute(input) {
      const result = await forgetNotes(store, input.text);
      if (!result.ok) throw new ToolError(`forget: ${result.message}`);
      return { output: result.message, summary: result.removed.length === 0 ? "none matched" : `${notes(result.removed.length)} removed` };
    },
  });
}
