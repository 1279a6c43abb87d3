import { recordCommandRun, type MemoryStore } from "../memory/index.ts";
import { programName, unwrapCommand } from "../permissions/invocation.ts";
import { parseShell } from "../permissions/shell-parse.ts";

/** Commands that only move the shell: `cd src && bun test` is known by `bun test`. */
const MOVES_ONLY = new Set(["cd", "pushd", "popd"]);

/**
 * The words a command line is known by, for matching it to a `command` note: the program's name
 * (wrappers such as `env`, `sudo` or `timeout` and variable assignments peeled, a path cut to its
 * last part: `./gradlew` is `gradlew`) and its first argument unless that is an option:
 * `bun test spec/db` → `bun test`, `make -j4` → `make`. Undefined unless the line runs exactly one
 * command besides `cd` (no pipe, no `&&` chain of two programs, no `$(…)`), since the exit code of
 * a line of several is not that of any one of them. Pure.
 */
export function commandKey(line: string): string[] | undefined {
  const parsed = parseShell(line);
  if (parsed.substitutions.length > 0) return undefined;
  const invocations = parsed.commands.map((command) => unwrapCommand(command.words)).filter((inv) => inv !== undefined && !MOVES_ONLY.has(inv.name));
  if (invocations.length !== 1) return undefined;
  const { name, args } = invocations[0]!;
  const first = args[0]?.text;
  return first !== undefined && first !== "" && !first.startsWith("-") ? [name, first] : [name];
}

/**
 * Whether a note's text names the command known by `key`. A note with text in backticks names the
 * command in its first backticked span, whose own key must be the same (`` `bun test` ``, not
 * `` `npm test` `` further on); a note without backticks names it when the key's words appear in
 * it one after the other (`tests run with bun test`). Pure.
 */
export function noteNamesCommand(text: string, key: readonly string[]): boolean {
  const span = /`([^`]+)`/.exec(text)?.[1];
  if (span !== undefined) return commandKey(span)?.join(" ") === key.join(" ");
  const words = text.split(/\s+/).map((word) => word.replace(/^[("'[]+/, "").replace(/[)"'\],.:;!?]+$/, ""));
  return words.some((_, i) => key.every((k, j) => (j === 0 ? programName(words[i] ?? "") : words[i + j]) === k));
}

/**
 * What the session does with each command the agent ran to its end (lib/agent/conversation.ts):
 * the `command` notes naming it record that it could not run (exit 127 or 126), or that it ran.
 * A line with no key (several commands) reads nothing. Never rejects: a store that cannot be
 * written leaves the notes as they were, and the promise resolves with why, for the user.
 */
export function commandRunRecorder(store: MemoryStore): (command: string, exitCode: number) => Promise<string | undefined> {
  return async (command, exitCode) => {
    const key = commandKey(command);
    if (!key) return undefined;
    try {
      await recordCommandRun(store, (entry) => noteNamesCommand(entry.text, key), exitCode);
      return undefined;
    } catch (error) {
      return `could not record in project memory how \`${key.join(" ")}\` ran: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
}
