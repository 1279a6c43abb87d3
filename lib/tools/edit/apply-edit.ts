export type Edit = { oldString: string; newString: string; replaceAll?: boolean };

export type EditOutcome =
  | { type: "applied"; content: string; replacements: number }
  | { type: "not-found" }
  | { type: "ambiguous"; occurrences: number }
  | { type: "no-op" };

/**
 * One exact-text replacement on `content`. Pure; returns the new content or why it cannot apply.
 * `oldString` must occur exactly once unless replaceAll. When the file uses CRLF line endings
 * and the strings use plain "\n" (the way models write them), both are matched and written as CRLF.
 */
export function applyEdit(content: string, edit: Edit): EditOutcome {
  if (edit.oldString === edit.newString) return { type: "no-op" };
  let { oldString, newString } = edit;
  let occurrences = countOccurrences(content, oldString);
  if (occurrences === 0 && content.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r")) {
    oldString = toCrlf(oldString);
    newString = toCrlf(newString);
    occurrences = countOccurrences(content, oldString);
  }
  if (occurrences === 0) return { type: "not-found" };
  if (occurrences > 1 && !edit.replaceAll) return { type: "ambiguous", occurrences };
  if (edit.replaceAll) return { type: "applied", content: content.split(oldString).join(newString), replacements: occurrences };
  const at = content.indexOf(oldString);
  return { type: "applied", content: content.slice(0, at) + newString + content.slice(at + oldString.length), replacements: 1 };
}

export type EditsOutcome =
  | { type: "applied"; content: string; replacements: number }
  | { type: "failed"; index: number; outcome: Exclude<EditOutcome, { type: "applied" }> };

/**
 * Edits applied in order, each to the text the ones before it left; all or nothing. Pure. What
 * multi_edit writes and what the approval preview shows for edit_file and multi_edit.
 */
export function applyEdits(content: string, edits: readonly Edit[]): EditsOutcome {
  let current = content;
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    const outcome = applyEdit(current, edit);
    if (outcome.type !== "applied") return { type: "failed", index, outcome };
    current = outcome.content;
    replacements += outcome.replacements;
  }
  return { type: "applied", content: current, replacements };
}

/** The model-facing reason an edit did not apply; `path` as displayed. */
export function editFailureReason(outcome: Exclude<EditOutcome, { type: "applied" }>, path: string): string {
  switch (outcome.type) {
    case "not-found":
      return (
        `oldString was not found in ${path}. Read the file with read_file and copy the exact text, ` +
        `including whitespace and indentation but not the line-number prefix.`
      );
    case "ambiguous":
      return (
        `oldString appears ${outcome.occurrences} times in ${path}. ` +
        `Add surrounding lines to make it unique, or set replaceAll to change every occurrence.`
      );
    case "no-op":
      return "oldString and newString are identical, so there is nothing to change.";
    default:
      return outcome satisfies never;
  }
}

/** Non-overlapping occurrences, counted the way split() would cut them. */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}
