import type { ModelMessage } from "ai";
import { restoreTodos } from "../notebook/restore.ts";
import type { Todo } from "../notebook/schema.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";
import { describeUndo } from "../sessions/undo/report.ts";
import { applyUndo, planUndo, type UndoMode, type UndoPlan as Plan } from "../sessions/undo/restore.ts";

type UndoPlan = Extract<Plan, { type: "undo" }>;
type Applied = Awaited<ReturnType<typeof applyUndo>>;

export type UndoTurnOptions = {
  journal: UndoJournal;
  /** The session's messages now. */
  history: readonly ModelMessage[];
  mode: UndoMode;
  /**
   * Files changed after the turn (`changed`, never empty) would be overwritten: true to go on.
   * `/undo` asks the user; `shiro undo` answers with --force (and says what stood in the way).
   */
  overwrite(plan: UndoPlan, changed: UndoPlan["files"]): boolean | Promise<boolean>;
  /** The conversation goes back: the session keeps its first `historyLength` messages and these tasks. */
  restore(historyLength: number, todos: readonly Todo[]): void;
  /** A path as the user reads it. */
  shown(path: string): string;
  /** The command that undoes, as the lines name it (`/undo`, `shiro undo`). */
  command: string;
};

/** How an undo went: nothing to undo (`why`), stopped at a compaction, declined (changed files), or done. */
export type UndoTurnOutcome =
  | { type: "nothing"; why: string }
  | { type: "compacted"; why: string }
  | { type: "declined"; plan: UndoPlan }
  | { type: "done"; plan: UndoPlan; applied: Applied; lines: string[]; prompt?: string };

/**
 * The undo flow of both `/undo` and `shiro undo`: the latest turn not yet undone goes back — its
 * files, its conversation and task list, or one half (`mode`). Files changed since that turn are
 * overwritten only if `overwrite` says so.
 */
export async function undoLatestTurn(opts: UndoTurnOptions): Promise<UndoTurnOutcome> {
  const plan = planUndo(opts.journal, opts.mode, opts.history);
  if (plan.type !== "undo") return plan;
  const changed = plan.files.filter((file) => file.changedSince);
  if (changed.length > 0 && !(await opts.overwrite(plan, changed))) return { type: "declined", plan };
  const applied = await applyUndo(opts.journal, plan);
  const turn = plan.conversationOf;
  if (turn) opts.restore(turn.historyLength, restoreTodos(turn.todos).todos);
  return { type: "done", plan, applied, lines: describeUndo(plan, applied, opts.shown, opts.command), ...(turn ? { prompt: turn.prompt } : {}) };
}
