import { readConfined } from "../../fs/confined-ops.ts";
import { looksBinary } from "../../fs/binary.ts";
import type { FileState, TurnEntry, UndoJournal } from "./journal.ts";
import { sameState } from "./journal.ts";

/** One file's change for /diff: its text before and after (undefined: no file), or why there is none to show. */
export type FileChange = { path: string; before: string | undefined; after: string | undefined; note?: string };

/**
 * What the last turn that changed files did to them, from the states kept before it and at its
 * end: every file tool's change (write, edit, patch, move, delete). Undefined when no kept turn
 * changed a file, or the last one's files were undone.
 */
export function lastTurnChanges(journal: UndoJournal): { entry: TurnEntry; files: FileChange[] } | undefined {
  const entries = journal.entries();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type !== "turn" || entry.files.length === 0) continue;
    if (entry.filesUndone) return undefined;
    return { entry, files: entry.files.map((file) => change(journal, file.path, file.before, file.after ?? journal.stateNow(file.path))) };
  }
  return undefined;
}

/**
 * What the session changed in the files it touched: each file's state before the session first
 * changed it, against the file as it is now (edits made outside shiro since included). Files back
 * where they started are left out.
 */
export function sessionChanges(journal: UndoJournal): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, before] of Object.entries(journal.base())) {
    const now = journal.stateNow(path);
    if (sameState(before, now)) continue;
    changes.push(change(journal, path, before, now));
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/** The texts of two states of `path`: kept content, or the file itself when that is the state it is in now. */
function change(journal: UndoJournal, path: string, before: FileState, after: FileState): FileChange {
  const read = (state: FileState): { text: string | undefined; note?: string } => {
    if (state.kind === "absent") return { text: undefined };
    if (state.kind === "unkept") return { text: undefined, note: `too large to keep (${Math.round(state.size / 1024)} KB)` };
    let bytes: Uint8Array;
    try {
      bytes = journal.blob(state);
    } catch {
      const now = journal.stateNow(path);
      if (now.kind !== "file" || now.blob !== state.blob) return { text: undefined, note: "its kept content is missing" };
      const found = readConfined({ root: journal.rootOf(path) }, path);
      if (!found.bytes) return { text: undefined, note: "its kept content is missing" };
      bytes = found.bytes;
    }
    if (looksBinary(bytes)) return { text: undefined, note: "binary file" };
    return { text: new TextDecoder().decode(bytes) };
  };
  const a = read(before);
  const b = read(after);
  const note = a.note ?? b.note;
  return { path, before: a.text, after: b.text, ...(note ? { note } : {}) };
}
