import { rankNotes } from "./boot-block.ts";
import { parseCompactionReply } from "./compaction-reply.ts";
import { MEMORY_TEXT_MAX_CHARS } from "./limits.ts";
import { checkNote } from "./remember.ts";
import type { MemoryEntry, NoteDraft } from "./schema.ts";
import { noteKey } from "./text.ts";

/** A suggestion call proposes at most this many notes; more in a reply are dropped. */
export const MAX_SUGGESTED_NOTES = 5;
/** The notes already kept are listed to the model up to this many characters (the most used first). */
const KNOWN_NOTES_MAX_CHARS = 20_000;

/** Opens the suggestion call's instructions (the fake server of the tests routes the call by it). */
export const SUGGESTION_INSTRUCTIONS_START = "You suggest notes for a coding agent's project memory.";

const INSTRUCTIONS = [
  SUGGESTION_INSTRUCTIONS_START,
  "A later session in this project starts without this conversation; the notes are what it will know.",
  `From the part of a coding session below, propose at most ${MAX_SUGGESTED_NOTES} notes worth keeping for weeks, each of one kind:`,
  "- fact: how something in the project is;",
  "- decision: what was chosen, and why;",
  "- gotcha: a trap someone would fall into;",
  "- command: an invocation that works.",
  "Only what the session showed to be true of this project; not the task in progress, not what a note below already says.",
  `Each note is one self-contained line of at most ${MEMORY_TEXT_MAX_CHARS} characters: name the file, the command, the reason; never "the new approach".`,
  "Reply with the notes only, one per line, each exactly in this form:",
  "(kind) text",
  "Reply NONE when nothing is worth keeping.",
].join("\n");

/**
 * The suggestion call: instructions, and one user message with the notes kept already (so the
 * model does not propose them again) and the session's new part as text (`transcript`, rendered by
 * the caller). No tools.
 */
export function suggestionRequest(transcript: string, kept: readonly MemoryEntry[]): { instructions: string; messages: { role: "user"; content: string }[] } {
  const listed: string[] = [];
  let room = KNOWN_NOTES_MAX_CHARS;
  for (const entry of rankNotes(kept)) {
    const line = `(${entry.kind}) ${entry.text}`;
    if (line.length + 1 > room) break;
    listed.push(line);
    room -= line.length + 1;
  }
  const known = listed.length > 0 ? `Notes already in memory (do not propose these again):\n${listed.join("\n")}` : "Project memory is empty so far.";
  const content = `${known}\n\nThe session:\n<transcript>\n${transcript}\n</transcript>\n\nYour notes now, at most ${MAX_SUGGESTED_NOTES}, or NONE.`;
  return { instructions: INSTRUCTIONS, messages: [{ role: "user", content }] };
}

/**
 * The notes a suggestion reply proposes, ready to show: lines in the `(kind) text` form (as
 * compaction reads them), tidied as `remember` tidies them (and without escape sequences or control
 * characters, which could hide words from the person deciding), without the empty or over-long ones,
 * without those the store (`kept`) or `waiting` (the inbox) already hold or that repeat one
 * another, ignoring case and spacing; at most MAX_SUGGESTED_NOTES. Pure.
 */
export function parseSuggestions(reply: string, kept: readonly MemoryEntry[], waiting: readonly NoteDraft[] = []): NoteDraft[] {
  const seen = new Set([...kept, ...waiting].map((note) => noteKey(note.text)));
  const notes: NoteDraft[] = [];
  for (const draft of parseCompactionReply(reply).drafts) {
    // Shown to a person who decides on what they see: no escape sequence may hide part of what is kept.
    const checked = checkNote({ ...draft, text: Bun.stripANSI(draft.text).replace(/[\x00-\x1f\x7f-\x9f]/g, " ") });
    if (!checked.ok) continue;
    const key = noteKey(checked.note.text);
    if (seen.has(key)) continue;
    seen.add(key);
    notes.push(checked.note);
    if (notes.length === MAX_SUGGESTED_NOTES) break;
  }
  return notes;
}
