import { shiroHome } from "../lib/config/load.ts";
import { ShiroError } from "../lib/errors.ts";
import { displayPath } from "../lib/fs/workspace.ts";
import { findSession, resolveSessionId } from "../lib/sessions/find.ts";
import { acquireSession } from "../lib/sessions/ownership.ts";
import { saveSession } from "../lib/sessions/store.ts";
import { openUndoJournal } from "../lib/sessions/undo/journal.ts";
import { overwritePhrase } from "../lib/sessions/undo/report.ts";
import type { UndoMode } from "../lib/sessions/undo/restore.ts";
import { rewindTo } from "../lib/app/rewind.ts";
import { COMMON_FLAGS, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";

const USAGE = "usage: shiro rewind <session> --to <n> [--files | --conversation] [--force]   (n: the prompt's number, as shiro sessions show prints it)";

/** `shiro rewind`'s flags. */
export const REWIND_FLAGS = {
  to: { type: "string", valueHint: "n", description: "go back to just before prompt n (1 is the first prompt)" },
  files: { type: "boolean", description: "only put back the files; keep the conversation" },
  conversation: { type: "boolean", description: "only take the conversation (and task list) back; keep the files" },
  force: { type: "boolean", description: "overwrite files changed outside shiro since (without it they are listed and nothing is done)" },
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/**
 * `shiro rewind <session> --to <n>`: `/rewind` for scripts. The session goes back to just before
 * its prompt n: the conversation and task list, and the files every turn since changed (or one
 * half). Refuses a session another shiro has open, and files changed outside shiro since unless
 * --force. Prints what it did. Exit 0 when it rewound, 1 when it could not, 2 for usage.
 */
export async function runRewindCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseFlags(argv, REWIND_FLAGS, "shiro rewind");
  if (args.help) {
    process.stdout.write(commandHelp(USAGE, REWIND_FLAGS));
    return 0;
  }
  if (args.files && args.conversation) throw new ShiroError("usage", "use --files or --conversation, not both (without either, both go back).");
  if (args._.length !== 1) throw new ShiroError("usage", USAGE);
  const to = Number(args.to);
  if (args.to === undefined || !/^\d+$/.test(String(args.to)) || to < 1) throw new ShiroError("usage", `--to needs a prompt number (1 for the first; shiro sessions show ${args._[0]} numbers them).`);
  const mode: UndoMode = args.files ? "files" : args.conversation ? "conversation" : "all";
  const home = shiroHome(env);
  const cwd = process.cwd();
  const id = resolveSessionId(home, String(args._[0]));
  const held = acquireSession(home, id);
  if (!held.ok) throw new ShiroError("state", `session ${id} is open in another shiro (pid ${held.holderPid}): use /rewind there.`);
  try {
    const record = findSession(home, id); // read under the lock: the latest version
    const shown = (path: string) => displayPath({ cwd }, path);
    const outcome = await rewindTo({
      journal: openUndoJournal(home, id),
      history: record.messages,
      to,
      mode,
      overwrite: (_plan, changed) => {
        if (args.force) return true;
        const names = changed.map((f) => shown(f.path)).join(", ");
        process.stderr.write(`shiro: nothing was rewound: ${names} changed outside shiro since (or in a turn that never finished). Run again with --force to ${overwritePhrase(changed).phrase}.\n`);
        return false;
      },
      restore: (historyLength, todos, goal) => {
        const { goal: now, ...rest } = record;
        const kept = goal ? goal.goal : now;
        saveSession(home, {
          ...rest,
          messages: record.messages.slice(0, historyLength),
          notebook: todos ? { ...record.notebook, todos: [...todos] } : record.notebook,
          ...(kept ? { goal: kept } : {}),
          updatedAt: new Date().toISOString(),
        });
      },
      shown,
    });
    if (outcome.type === "nothing") {
      process.stderr.write(`shiro: nothing to rewind in session ${id}: ${outcome.why}.\n`);
      return 1;
    }
    if (outcome.type === "declined") return 1;
    const lines = [...outcome.lines, "The prompt was:", ...outcome.prompt.split("\n").map((line) => `  ${line}`)];
    process.stdout.write(lines.join("\n") + "\n");
    return outcome.applied.failed.length > 0 ? 1 : 0;
  } finally {
    held.release();
  }
}
