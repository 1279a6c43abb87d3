import { plural } from "../../text/lines.ts";
import type { TurnChanges } from "./journal.ts";
import type { FileRestore, UndoOutcome, UndoPlan } from "./restore.ts";

/**
 * The line at the end of a turn: what it changed that `command` can restore, and what it ran that
 * nothing can take back, e.g. `3 files changed · /undo to restore · bash ran 2 commands: /undo
 * cannot revert what they may have changed`. "" when the turn did neither. The conversation counts
 * a command whatever its exit code (a failing one may have changed things too), except one judged
 * to only read. `commandsTold`: the user was told already in this session (the loop says it once),
 * so the commands are left out.
 */
export function describeTurnChanges(changes: TurnChanges | undefined, command: string, opts: { commandsTold?: boolean } = {}): string {
  if (!changes) return "";
  const parts: string[] = [];
  if (changes.files > 0) {
    parts.push(`${plural(changes.files, "file")} changed`);
    const restorable = changes.files - changes.unkept;
    if (restorable > 0) parts.push(`${command} to restore${changes.unkept > 0 ? ` (not ${plural(changes.unkept, "file")} too large to keep)` : ""}`);
    else parts.push(`too large for ${command} to keep`);
  }
  if (changes.commands > 0 && !opts.commandsTold) parts.push(`bash ran ${plural(changes.commands, "command")}: ${command} cannot revert what ${changes.commands === 1 ? "it" : "they"} may have changed`);
  return parts.join(" · ");
}

/**
 * What an undo did, in lines for the user: the files put back (and how), the ones it could not,
 * and where the conversation now stands. `shown` turns an absolute path into the one displayed;
 * `command` is how the user undoes ("/undo", "shiro undo").
 */
export function describeUndo(plan: Extract<UndoPlan, { type: "undo" }>, outcome: UndoOutcome, shown: (path: string) => string, command: string): string[] {
  const turn = plan.filesOf ?? plan.conversationOf!;
  const quoted = JSON.stringify(turn.prompt.length > 60 ? turn.prompt.slice(0, 59) + "…" : turn.prompt);
  const lines: string[] = [];
  const verbs = { restore: "restored", remove: "removed", recreate: "recreated" } as const;
  if (plan.filesOf) {
    lines.push(plan.conversationOf ? `Undid the turn ${quoted}:` : `Put back the files of the turn ${quoted}:`);
    for (const file of outcome.done) lines.push(`  ${verbs[file.action]} ${shown(file.path)}`);
    for (const failure of outcome.failed) lines.push(`  could not put back ${shown(failure.path)}: ${failure.why}`);
    for (const path of plan.unkept) lines.push(`  ${shown(path)} was too large to keep, so it stays as it is`);
    if (outcome.done.length + outcome.failed.length + plan.unkept.length === 0) lines.push("  (its files were already as they were before it)");
    if (!plan.conversationOf) lines.push("The conversation is unchanged.");
  }
  if (plan.conversationOf) {
    // "The files are unchanged" only when nothing ran that could have changed them.
    if (!plan.filesOf) lines.push(`Took the conversation back to before ${quoted}${turn.commands > 0 ? "." : "; the files are unchanged."}`);
    else lines.push("The conversation is back to before that prompt.");
  }
  if (turn.commands > 0) lines.push(`bash ran ${plural(turn.commands, "command")} in that turn; ${command} cannot revert what ${turn.commands === 1 ? "it" : "they"} may have changed.`);
  return lines;
}

/**
 * Why the files an undo would overwrite are in question, e.g. `a.txt changed after that turn
 * (outside shiro, or later)`. A turn shiro never finished (it was killed in it) left no record of
 * its end, so a later change cannot be told from the turn's own: the words say that instead.
 */
export function describeChangedSince(plan: Extract<UndoPlan, { type: "undo" }>, shown: (path: string) => string): string {
  const changed = plan.files.filter((file) => file.changedSince).map((file) => shown(file.path));
  const list = changed.join(", ");
  if (plan.filesOf?.ended === false) {
    return `That turn never finished (shiro was stopped during it), so whether ${list} changed after it cannot be told`;
  }
  return `${list} changed after that turn (outside shiro, or later)`;
}

/**
 * What saying yes does to the changed files, as a verb phrase: `overwrite it with the version from
 * before the turn`, or `delete it (the turn created it)` when the file did not exist before the turn,
 * so the user is not told "overwrite" when their edits go with the whole file.
 */
export function overwritePhrase(changed: readonly FileRestore[]): { phrase: string; verb: "overwrite" | "delete" } {
  const one = changed.length === 1;
  const created = changed.filter((file) => file.action === "remove").length;
  if (created === changed.length) return { phrase: one ? "delete it (the turn created it)" : "delete them (the turn created them)", verb: "delete" };
  const base = `overwrite ${one ? "it" : "them"} with the version from before the turn`;
  return { phrase: created > 0 ? `${base} (deleting the ${created === 1 ? "one" : "ones"} it created)` : base, verb: "overwrite" };
}
