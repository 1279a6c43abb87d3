import type { ModelMessage } from "ai";
import { dirname } from "node:path";
import { rmdirConfined, unlinkConfined, writeConfined } from "../../fs/confined-ops.ts";
import { sameState, type FileState, type TurnEntry, type UndoJournal } from "./journal.ts";

/** `/undo` (both halves), `/undo files`, `/undo conversation`. */
export type UndoMode = "all" | "files" | "conversation";

/** One file going back to the state it had before the turn. */
export type FileRestore = {
  path: string;
  to: FileState;
  /** What putting it back does: restore an edited file, remove a created one, recreate a deleted one. */
  action: "restore" | "remove" | "recreate";
  /** Changed since the turn ended (by the user, another program, a later tool): overwriting it needs a yes. */
  changedSince: boolean;
  createdDir?: string;
};

export type UndoPlan =
  /** Nothing left to walk back; `why` says why (no turns yet, or older ones were let go). */
  | { type: "nothing"; why: string }
  /** The walk back reached a compaction, which cannot be undone. */
  | { type: "compacted"; why: string }
  | {
      type: "undo";
      /** The turn whose files go back (for `files` and `all`). */
      filesOf?: TurnEntry;
      files: FileRestore[];
      /** Files the turn changed that were too large to keep: they stay as they are. */
      unkept: string[];
      /** The turn whose conversation goes back (for `conversation` and `all`). */
      conversationOf?: TurnEntry;
    };

/** Why a walk back through no (more) turns ends: a journal that could not be read, older turns let go, or none at all. */
const nothingLeft = (journal: UndoJournal) =>
  journal.damaged() ??
  (journal.truncated() ? "no older turn is kept (shiro keeps the last 20 turns, and at most 64 MB of file contents)" : "no turn of this session is left to undo");

/**
 * What an undo would do, without doing it: the latest turn whose half (or halves) is not undone
 * yet, each file it changed with what going back means and whether it changed since, and the
 * conversation to go back to. A turn's files and its conversation are two halves walked back
 * separately (`/undo files` twice undoes the files of the last two turns and keeps the talk); a
 * turn with no changed files has nothing for the files walk. The walk stops at a `/compact`, and
 * at a history that no longer holds the turn's prompt where it was (something rewrote it). Pure
 * apart from reading the files' current state.
 */
export function planUndo(journal: UndoJournal, mode: UndoMode, history: readonly ModelMessage[]): UndoPlan {
  const entries = journal.entries();
  const pending = (want: (e: TurnEntry) => boolean): TurnEntry | "compacted" | undefined => {
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (entry.type === "compact") return "compacted";
      if (want(entry)) return entry;
    }
    return undefined;
  };
  const filesWanted = (e: TurnEntry) => !e.filesUndone && e.files.length > 0;
  const conversationWanted = (e: TurnEntry) => !e.conversationUndone;
  const target =
    mode === "files" ? pending(filesWanted) : mode === "conversation" ? pending(conversationWanted) : pending((e) => filesWanted(e) || conversationWanted(e));
  if (target === "compacted") {
    return { type: "compacted", why: "the conversation was compacted (/compact) before that, and a compaction cannot be undone" };
  }
  if (!target) return { type: "nothing", why: mode === "files" ? `no turn left to undo changed a file (${nothingLeft(journal)})` : nothingLeft(journal) };
  const withFiles = mode !== "conversation" && filesWanted(target);
  const withConversation = mode !== "files" && conversationWanted(target);
  if (withConversation && !holdsPrompt(history, target)) {
    return { type: "compacted", why: "the conversation was rewritten since that turn (by /compact or a repair), so it cannot go back further" };
  }
  const files: FileRestore[] = [];
  const unkept: string[] = [];
  if (withFiles) {
    for (const file of target.files) {
      if (file.before.kind === "unkept") {
        unkept.push(file.path);
        continue;
      }
      const now = journal.stateNow(file.path);
      if (sameState(now, file.before)) continue; // already as it was
      const changedSince = file.after === undefined || !sameState(now, file.after);
      const action = file.before.kind === "absent" ? "remove" : now.kind === "absent" ? "recreate" : "restore";
      files.push({ path: file.path, to: file.before, action, changedSince, ...(file.createdDir ? { createdDir: file.createdDir } : {}) });
    }
  }
  return {
    type: "undo",
    ...(withFiles ? { filesOf: target } : {}),
    files,
    unkept,
    ...(withConversation ? { conversationOf: target } : {}),
  };
}

export type UndoOutcome = {
  /** Files put back, with what was done to each. */
  done: FileRestore[];
  /** Files that could not be put back, and why. */
  failed: { path: string; why: string }[];
};

/**
 * Carries out a plan's file half (every file, changed since or not: asking is the caller's) and
 * marks the halves it covers as undone. The conversation half is the caller's to apply (it owns
 * the history and the task list): `conversationOf.historyLength`, `.todos` and `.prompt`.
 */
export async function applyUndo(journal: UndoJournal, plan: Extract<UndoPlan, { type: "undo" }>): Promise<UndoOutcome> {
  const outcome = await putBackFiles(journal, plan.files);
  if (plan.filesOf) journal.markUndone(plan.filesOf.seq, "files");
  if (plan.conversationOf) journal.markUndone(plan.conversationOf.seq, "conversation");
  return outcome;
}

/** Puts each file back (asking about changed ones is the caller's); marks nothing. Used by undo and rewind. */
export async function putBackFiles(journal: UndoJournal, files: readonly FileRestore[]): Promise<UndoOutcome> {
  const done: FileRestore[] = [];
  const failed: { path: string; why: string }[] = [];
  for (const file of files) {
    try {
      await putBack(journal, file);
      done.push(file);
    } catch (error) {
      failed.push({ path: file.path, why: error instanceof Error ? error.message : String(error) });
    }
  }
  return { done, failed };
}

/**
 * Puts one file back, reaching it from the workspace root of its turn without following a link
 * out (lib/fs/confined.ts): a folder replaced by a symlink since the turn is refused, not written through.
 */
async function putBack(journal: UndoJournal, file: FileRestore): Promise<void> {
  const { to } = file;
  const at = { root: journal.rootOf(file.path) };
  if (to.kind === "absent") {
    unlinkConfined(at, file.path, { force: true });
    // Folders the turn created for the file go too, while empty, up to the first that existed.
    if (file.createdDir) {
      for (let dir = dirname(file.path); dir.startsWith(file.createdDir); dir = dirname(dir)) {
        if (!rmdirConfined(at, dir)) break; // not empty, gone, or (a journal without a root) above the bound
        if (dir === file.createdDir) break;
      }
    }
    return;
  }
  if (to.kind !== "file") return;
  writeConfined(at, file.path, journal.blob(to), { mode: to.mode });
}

/** True when the history still holds the turn's prompt where the turn started. */
function holdsPrompt(history: readonly ModelMessage[], entry: TurnEntry): boolean {
  const message = history[entry.historyLength];
  if (!message || message.role !== "user") return false;
  const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  // A prompt a command wrote is recorded as typed (lib/agent/conversation.ts TypedPrompt).
  const typed = message.providerOptions?.shiro?.typed;
  return (typeof typed === "string" ? typed : text) === entry.prompt;
}
