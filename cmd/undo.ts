import { shiroHome } from "../lib/config/load.ts";
import { ShiroError } from "../lib/errors.ts";
import { displayPath } from "../lib/fs/workspace.ts";
import { continueSession, findSession, resolveSessionId } from "../lib/sessions/find.ts";
import { acquireSession } from "../lib/sessions/ownership.ts";
import { saveSession } from "../lib/sessions/store.ts";
import { openUndoJournal } from "../lib/sessions/undo/journal.ts";
import { describeChangedSince, overwritePhrase } from "../lib/sessions/undo/report.ts";
import type { UndoMode } from "../lib/sessions/undo/restore.ts";
import { undoLatestTurn } from "../lib/app/undo.ts";
import { COMMON_FLAGS, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";

const USAGE = "usage: shiro undo [<session>] [--files | --conversation] [--force]   (default: the newest session in this directory)";

/** `shiro undo`'s flags. */
export const UNDO_FLAGS = {
  files: { type: "boolean", description: "only put back the files the turn changed; keep the conversation" },
  conversation: { type: "boolean", description: "only take the conversation (and task list) back; keep the files" },
  force: { type: "boolean", description: "overwrite files that changed after the turn (without it they are listed and nothing is undone)" },
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/**
 * `shiro undo [<session>]`: `/undo` for scripts and headless runs. Takes back the newest turn not
 * yet undone of a session (the newest in this directory by default): its files and its
 * conversation, or one half. Refuses a session another shiro has open, and files changed since
 * the turn unless --force. Exit 0 when it undid something, 1 when there was nothing to undo or
 * something stood in the way, 2 for usage.
 */
export async function runUndoCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseFlags(argv, UNDO_FLAGS, "shiro undo");
  if (args.help) {
    process.stdout.write(commandHelp(USAGE, UNDO_FLAGS));
    return 0;
  }
  if (args.files && args.conversation) throw new ShiroError("usage", "use --files or --conversation, not both (without either, both halves are undone).");
  if (args._.length > 1) throw new ShiroError("usage", USAGE);
  const mode: UndoMode = args.files ? "files" : args.conversation ? "conversation" : "all";
  const home = shiroHome(env);
  const cwd = process.cwd();
  const id = args._[0] !== undefined ? resolveSessionId(home, args._[0]) : continueSession(home, cwd, { onSkipped: (warning) => process.stderr.write(`shiro: warning: ${warning}\n`) }).id;
  const held = acquireSession(home, id);
  if (!held.ok) throw new ShiroError("state", `session ${id} is open in another shiro (pid ${held.holderPid}): use /undo there.`);
  try {
    const record = findSession(home, id); // read under the lock: the latest version
    const shown = (path: string) => displayPath({ cwd }, path);
    const outcome = await undoLatestTurn({
      journal: openUndoJournal(home, id),
      history: record.messages,
      mode,
      overwrite: (plan, changed) => {
        if (args.force) return true;
        process.stderr.write(
          plan.filesOf?.ended === false
            ? `shiro: nothing was undone. ${describeChangedSince(plan, shown)}. Run again with --force to ${overwritePhrase(changed).phrase}.\n`
            : `shiro: ${changedSince(changed.map((f) => shown(f.path)))}, so nothing was undone. Run again with --force to ${overwritePhrase(changed).phrase}.\n`,
        );
        return false;
      },
      restore: (historyLength, todos) =>
        saveSession(home, { ...record, messages: record.messages.slice(0, historyLength), notebook: { ...record.notebook, todos: [...todos] }, updatedAt: new Date().toISOString() }),
      shown,
      command: "shiro undo",
    });
    if (outcome.type === "nothing" || outcome.type === "compacted") {
      process.stderr.write(`shiro: ${outcome.type === "nothing" ? "nothing to undo" : "shiro undo stops here"} in session ${id}: ${outcome.why}.\n`);
      return 1;
    }
    if (outcome.type === "declined") return 1;
    const lines = [...outcome.lines];
    if (outcome.prompt !== undefined) lines.push("The prompt was:", ...outcome.prompt.split("\n").map((line) => `  ${line}`));
    process.stdout.write(lines.join("\n") + "\n");
    return outcome.applied.failed.length > 0 ? 1 : 0;
  } finally {
    held.release();
  }
}

/** "a.txt changed after that turn", or "these files changed after that turn: a.txt, b.txt". */
function changedSince(paths: readonly string[]): string {
  return paths.length === 1 ? `${paths[0]} changed after that turn` : `these files changed after that turn: ${paths.join(", ")}`;
}
