/**
 * A note is one line: surrounding whitespace is dropped and every run of whitespace (newlines
 * included) becomes one space. This is what is stored and what the caps measure.
 */
export function normalizeNoteText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Two notes are duplicates when their normalized text matches ignoring case. Case-insensitive on
 * purpose: "Tests run with bun test" and "tests run with bun test" are the same note written
 * twice, and a note that differs from another only in letter case carries nothing new. The
 * refusal names the existing note, so the model can rephrase in the rare case it meant something else.
 */
export function noteKey(text: string): string {
  return normalizeNoteText(text).toLowerCase();
}

/** "1 note", "3 notes". */
export function notes(count: number): string {
  return `${count} ${count === 1 ? "note" : "notes"}`;
}
