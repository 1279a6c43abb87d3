import type { ModelMessage } from "ai";
import { sameState, type FileState, type TurnEntry, type UndoJournal } from "./journal.ts";
import type { FileRestore, UndoMode } from "./restore.ts";

/** One prompt of the session as /rewind lists it: its number (1 = the first, as `shiro sessions show` counts), where it sits, and its turn in the journal. */
export type RewindPoint = {
  /** 1-based, in the order the prompts were sent. */
  number: number;
  /** The prompt's index in the history: the conversation goes back to this length. */
  historyIndex: number;
  prompt: string;
  /** The journal's record of the turn it started; absent when the journal no longer holds it (older than 20 turns, before a /compact). */
  turn?: TurnEntry;
};

/**
 * The prompts the user sent in `history`, oldest first: user messages carrying shiro's note (a
 * compaction summary or a hook's text has none). Each is matched with the journal's turn that
 * started there, the newest such turn not taken back.
 */
export function rewindPoints(journal: UndoJournal, history: readonly ModelMessage[]): RewindPoint[] {
  const turns = journal.entries().filter((e): e is TurnEntry => e.type === "turn" && !e.conversationUndone);
  const points: RewindPoint[] = [];
  history.forEach((message, index) => {
    if (message.role !== "user") return;
    const shiro = (message.providerOptions as { shiro?: Record<string, unknown> } | undefined)?.shiro;
    if (!shiro || typeof shiro !== "object") return;
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    const prompt = typeof shiro.typed === "string" ? shiro.typed : text;
    const turn = turns.findLast((t) => t.historyLength === index && t.prompt === prompt);
    points.push({ number: points.length + 1, historyIndex: index, prompt, ...(turn ? { turn } : {}) });
  });
  return points;
}

export type RewindPlan = {
  point: RewindPoint;
  /** The conversation goes back to before the prompt (modes `all` and `conversation`). */
  conversation: boolean;
  /** The files go back (modes `all` and `files`). */
  withFiles: boolean;
  /** Files going back to their state before the prompt's turn. */
  files: FileRestore[];
  /** Files changed after the point that cannot go back: too large to keep, or their turns are no longer kept. */
  unrestorable: { path: string; why: string }[];
  /** The journal does not reach back to the point: no file can be restored (`why`), and the conversation alone goes back. */
  filesOutOfReach?: string;
  /** The kept turns from the point on (oldest first): the ones the rewind takes back. */
  turns: TurnEntry[];
  /** Commands those turns ran: their effects are not restored. */
  commands: number;
};

/**
 * What rewinding to just before prompt `point` would do, without doing it. Every turn from the
 * point's on is taken back: each file any of them changed goes to the state it had before the
 * first of them touched it, and counts as changed since when it differs from what the last of
 * them left (edited outside shiro, or a turn that never finished). When the journal no longer
 * holds the point's turn, no file is restored and the files changed since are named instead.
 */
export function planRewind(journal: UndoJournal, point: RewindPoint, mode: UndoMode): RewindPlan {
  const withFiles = mode !== "conversation";
  const all = journal.entries().filter((e): e is TurnEntry => e.type === "turn");
  const turns = point.turn ? all.filter((t) => t.seq >= point.turn!.seq) : all.filter((t) => t.historyLength >= point.historyIndex && !t.conversationUndone);
  const commands = turns.reduce((sum, t) => sum + t.commands, 0);
  const plan: RewindPlan = { point, conversation: mode !== "files", withFiles, files: [], unrestorable: [], turns, commands };
  if (!withFiles) return plan;
  const pending = turns.filter((t) => !t.filesUndone);
  if (!point.turn) {
    plan.filesOutOfReach =
      journal.damaged() ?? "the record of changed files does not reach back to that prompt (shiro keeps the last 20 turns and 64 MB of file contents, and nothing before a /compact)";
    const paths = new Set(pending.flatMap((t) => t.files.map((f) => f.path)));
    for (const path of [...paths].sort()) plan.unrestorable.push({ path, why: "not restored" });
    return plan;
  }
  /** Per path: its state before the first turn that touched it, and what the last one left. */
  const byPath = new Map<string, { before: FileState; after: FileState | undefined; createdDir?: string }>();
  for (const turn of pending) {
    for (const file of turn.files) {
      const seen = byPath.get(file.path);
      if (seen) seen.after = file.after;
      else byPath.set(file.path, { before: file.before, after: file.after, ...(file.createdDir ? { createdDir: file.createdDir } : {}) });
    }
  }
  for (const [path, state] of [...byPath].sort(([a], [b]) => a.localeCompare(b))) {
    if (state.before.kind === "unkept") {
      plan.unrestorable.push({ path, why: "too large to keep, so it stays as it is" });
      continue;
    }
    const now = journal.stateNow(path);
    if (sameState(now, state.before)) continue;
    const changedSince = state.after === undefined || !sameState(now, state.after);
    const action = state.before.kind === "absent" ? "remove" : now.kind === "absent" ? "recreate" : "restore";
    plan.files.push({ path, to: state.before, action, changedSince, ...(state.createdDir ? { createdDir: state.createdDir } : {}) });
  }
  return plan;
}
