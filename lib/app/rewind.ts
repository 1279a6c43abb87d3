import type { ModelMessage } from "ai";
import { restoreTodos } from "../notebook/restore.ts";
import type { Todo } from "../notebook/schema.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";
import * as v from "valibot";
import { formatAge } from "../sessions/list-format.ts";
import { GoalState } from "../sessions/schema.ts";
import { overwritePhrase } from "../sessions/undo/report.ts";
import { putBackFiles, type FileRestore, type UndoMode, type UndoOutcome } from "../sessions/undo/restore.ts";
import { planRewind, rewindPoints, type RewindPlan, type RewindPoint } from "../sessions/undo/rewind.ts";

export type { RewindPoint } from "../sessions/undo/rewind.ts";

export type RewindOptions = {
  journal: UndoJournal;
  /** The session's messages now. */
  history: readonly ModelMessage[];
  /** The prompt to go back to just before: its number, 1 for the first (rewindPoints). */
  to: number;
  mode: UndoMode;
  /** Files changed since the turns left them (`changed`, never empty) would be overwritten: true to go on. */
  overwrite(plan: RewindPlan, changed: readonly FileRestore[]): boolean | Promise<boolean>;
  /**
   * The conversation goes back to its first `historyLength` messages; the task list to `todos`
   * (undefined: not kept, leave it); the goal to `goal.goal` (none when undefined; `goal` itself
   * undefined: not kept, leave it).
   */
  restore(historyLength: number, todos: readonly Todo[] | undefined, goal: { goal: GoalState | undefined } | undefined): void;
  /** A path as the user reads it. */
  shown(path: string): string;
};

export type RewindOutcome =
  | { type: "nothing"; why: string }
  | { type: "declined"; plan: RewindPlan }
  | { type: "done"; plan: RewindPlan; applied: UndoOutcome; lines: string[]; prompt: string };

/**
 * This session's prompts, newest first, for /rewind's picker: each one's number and a row with
 * when it was sent and how many files its turn changed (`?` when the journal no longer holds it).
 */
export function rewindChoices(journal: UndoJournal, history: readonly ModelMessage[], now = new Date()): { number: number; label: string }[] {
  return rewindPoints(journal, history)
    .reverse()
    .map((point) => {
      const when = point.turn ? formatAge(point.turn.at, now) : "earlier";
      const files = point.turn ? plural(point.turn.files.length, "file") : "files ?";
      const text = point.prompt.replace(/\s+/g, " ").trim();
      return { number: point.number, label: `${String(point.number).padStart(3)}  ${when.padEnd(9)} ${files.padEnd(8)}  ${text}` };
    });
}

/**
 * The rewind flow of `/rewind` and `shiro rewind`: the session goes back to just before prompt
 * `to` — the conversation and task list, the files every turn since changed, or one half. Files
 * changed outside shiro since are overwritten only if `overwrite` says so. Past what the journal
 * keeps, the conversation alone goes back and the files are named.
 */
export async function rewindTo(opts: RewindOptions): Promise<RewindOutcome> {
  const points = rewindPoints(opts.journal, opts.history);
  if (points.length === 0) return { type: "nothing", why: "this session has no prompt to go back to" };
  const point = points[opts.to - 1];
  if (!point || !Number.isInteger(opts.to)) return { type: "nothing", why: `there is no prompt ${opts.to}: this session has ${plural(points.length, "prompt")} (1 to ${points.length})` };
  const plan = planRewind(opts.journal, point, opts.mode);
  if (opts.mode === "files" && plan.filesOutOfReach) return { type: "nothing", why: `no file can go back: ${plan.filesOutOfReach}` };
  const changed = plan.files.filter((file) => file.changedSince);
  if (changed.length > 0 && !(await opts.overwrite(plan, changed))) return { type: "declined", plan };
  const applied = await putBackFiles(opts.journal, plan.files);
  if (plan.conversation) {
    const todos = point.turn ? restoreTodos(point.turn.todos).todos : undefined;
    opts.restore(point.historyIndex, todos, goalBefore(point));
  }
  for (const turn of plan.turns) {
    if (opts.mode !== "conversation" && !plan.filesOutOfReach && !turn.filesUndone) opts.journal.markUndone(turn.seq, "files");
    if (plan.conversation && !turn.conversationUndone) opts.journal.markUndone(turn.seq, "conversation");
  }
  return { type: "done", plan, applied, lines: describeRewind(plan, applied, opts.shown), prompt: point.prompt };
}

/** What a rewind did, in lines: the files put back (and how), those it could not, where the conversation stands, and what commands did. */
export function describeRewind(plan: RewindPlan, outcome: UndoOutcome, shown: (path: string) => string): string[] {
  const { point } = plan;
  const quoted = JSON.stringify(point.prompt.length > 60 ? point.prompt.slice(0, 59) + "…" : point.prompt);
  const lines = [`Rewound to before prompt ${point.number}, ${quoted}${plan.turns.length > 0 ? ` (${plural(plan.turns.length, "turn")} taken back)` : ""}:`];
  const verbs = { restore: "restored", remove: "removed", recreate: "recreated" } as const;
  for (const file of outcome.done) lines.push(`  ${verbs[file.action]} ${shown(file.path)}`);
  for (const failure of outcome.failed) lines.push(`  could not put back ${shown(failure.path)}: ${failure.why}`);
  if (plan.filesOutOfReach) {
    lines.push(`  no file was restored: ${plan.filesOutOfReach}`);
    if (plan.unrestorable.length > 0) lines.push(`  files changed since that stay as they are: ${plan.unrestorable.map((f) => shown(f.path)).join(", ")}`);
  } else {
    for (const file of plan.unrestorable) lines.push(`  ${shown(file.path)} was ${file.why}`);
  }
  if (plan.conversation) {
    lines.push(point.turn ? "The conversation and the task list are back to before that prompt." : "The conversation is back to before that prompt; the task list stays as it is (its state then is no longer kept).");
    if (!plan.withFiles) lines.push(plan.commands > 0 ? "The files were not touched." : "The files are unchanged.");
    else if (outcome.done.length + outcome.failed.length + plan.unrestorable.length === 0 && !plan.filesOutOfReach) lines.push("No file had to go back.");
  } else {
    if (outcome.done.length + outcome.failed.length === 0) lines.push("  (the files were already as they were before it)");
    lines.push("The conversation is unchanged.");
  }
  if (plan.commands > 0) lines.push(`bash ran ${plural(plan.commands, "command")} since; a rewind cannot revert what ${plan.commands === 1 ? "it" : "they"} may have changed.`);
  return lines;
}

/** "1 turn", "3 turns". */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The loop's question when files changed outside shiro since: which, and what yes does. */
export function rewindQuestion(changed: readonly FileRestore[], shown: (path: string) => string): string {
  const { phrase, verb } = overwritePhrase(changed);
  const names = changed.map((f) => shown(f.path)).join(", ");
  return `${names} changed outside shiro since (or in a turn that never finished). ${phrase[0]!.toUpperCase()}${phrase.slice(1)}? y ${verb} · n cancel `;
}

/** The goal the session had before the point's turn, when the journal kept it (a goal that does not read counts as none). */
function goalBefore(point: RewindPoint): { goal: GoalState | undefined } | undefined {
  if (!point.turn || !("goal" in point.turn)) return undefined;
  const parsed = v.safeParse(GoalState, point.turn.goal);
  return { goal: parsed.success ? parsed.output : undefined };
}
