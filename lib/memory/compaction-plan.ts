import { COMPACT_ABOVE_ENTRIES, COMPACT_MIN_UNUSED, MEMORY_TEXT_MAX_CHARS } from "./limits.ts";
import type { MemoryEntry } from "./schema.ts";
import { notes } from "./text.ts";

export type CompactionPlan =
  | { type: "noop"; reason: string }
  | {
      type: "merge";
      /** The never-recalled notes sent to the model, to be replaced by its reply. */
      send: MemoryEntry[];
      /** Notes with at least one recall: kept verbatim, never sent. */
      keep: MemoryEntry[];
      /** The whole request for the model (one user message; no tools). */
      prompt: string;
    };

/**
 * Decides whether `/memory` does anything, and builds the request if so. A store of 60 notes or
 * fewer, or one with fewer than two never-recalled notes, is left alone on purpose: compaction is
 * a rewrite, and a rewrite of a small store costs more than it saves. Pure.
 */
export function planCompaction(entries: readonly MemoryEntry[]): CompactionPlan {
  if (entries.length <= COMPACT_ABOVE_ENTRIES) {
    return {
      type: "noop",
      reason: `Project memory has ${notes(entries.length)}; compaction starts above ${COMPACT_ABOVE_ENTRIES}, so nothing was changed.`,
    };
  }
  const send = entries.filter((e) => e.hits === 0);
  const keep = entries.filter((e) => e.hits > 0);
  if (send.length < COMPACT_MIN_UNUSED) {
    return {
      type: "noop",
      reason:
        `Only ${notes(send.length)} of ${entries.length} ${send.length === 1 ? "has" : "have"} never been recalled; compaction merges only ` +
        `never-recalled notes and needs at least ${COMPACT_MIN_UNUSED}, so nothing was changed.`,
    };
  }
  return { type: "merge", send, keep, prompt: compactionPrompt(send) };
}

/**
 * The reply format is `(kind) text`, one note per line: the same shape the model reads in its
 * instructions and from recall, nothing to escape (unlike JSON, where a quote or backslash in a
 * command breaks the line), and a line that is not in that shape is simply skipped.
 */
export function compactionPrompt(send: readonly MemoryEntry[]): string {
  return [
    "You are tidying a coding agent's memory of one software project. Below are notes it saved in earlier sessions and never looked up since.",
    "Rewrite them as fewer notes:",
    "- merge notes that say the same thing or overlap; combine related details into one note when they belong together;",
    "- keep every specific detail that carries information: file paths, commands, flags, names, numbers, reasons;",
    "- each note must stand alone: it is read in a later session with no conversation around it, so never write things like \"use the new approach\";",
    "- keep the kind of each note: fact (how something is), decision (what was chosen and why), gotcha (a trap), command (an invocation that works);",
    "- do not add anything that is not in the notes;",
    `- at most ${MEMORY_TEXT_MAX_CHARS} characters per note.`,
    "",
    "Reply with the notes only, one per line, each exactly in this form, with no numbering, bullets, headings or commentary:",
    "(kind) text",
    "",
    "For example:",
    "(command) Tests run with `bun test`, not `npm test`; `bun test spec/db` runs only the database specs.",
    "(gotcha) The migration must run before the seed or the FK on users.org_id fails.",
    "",
    `The ${notes(send.length)}:`,
    ...send.map((e) => `(${e.kind}) ${e.text}`),
  ].join("\n");
}
