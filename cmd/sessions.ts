import { shiroHome } from "../lib/config/load.ts";
import { ShiroError } from "../lib/errors.ts";
import { deleteSession, findSession } from "../lib/sessions/find.ts";
import { listSessions } from "../lib/sessions/list.ts";
import { forkSession } from "../lib/sessions/fork.ts";
import { formatSessionTable, forksUnderParents, sessionJson, sessionRows } from "../lib/sessions/list-format.ts";
import { exportSession, renderTranscript } from "../lib/sessions/transcript.ts";
import { COMMON_FLAGS, MODEL_FLAGS, flagsFrom, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";
import { subjectKindsOf, subjectsOf } from "../lib/sessions/transcript-items.ts";
import { createNotebook } from "../lib/notebook/notebook.ts";
import { toolsFor } from "../lib/tools/index.ts";
import { createMemoryStore } from "../lib/memory/store.ts";

const USAGE = "usage: shiro sessions [list] [--json] [--all] | show <id> | rm <id> | export <id> --format md|json | compact <id> | repair <id> [--write] | fork <id>";

/** Each sub-command's own usage, for `shiro sessions <sub> --help`. */
const SUB_USAGE: Record<string, string> = {
  list: "usage: shiro sessions [list] [--json] [--all]   this directory's saved sessions, newest first (--all: every directory's)",
  show: "usage: shiro sessions show <id>   the session as text: prompts, answers, one line per tool call with its mark",
  rm: "usage: shiro sessions rm <id>   delete a saved session",
  export: "usage: shiro sessions export <id> [--format md|json]   a Markdown transcript, or the JSON record",
  compact: "usage: shiro sessions compact <id>   replace the session's conversation with the model's summary of it",
  repair: "usage: shiro sessions repair <id> [--write]   check a session's history (and fix it, keeping a backup)",
  fork: "usage: shiro sessions fork <id>   copy a session under a new id (printed); shiro -r <new id> continues the copy",
};

/** `shiro sessions`' flags; the model flags are for `compact`. */
export const SESSIONS_FLAGS = {
  json: { type: "boolean", description: "list: one JSON object per session" },
  all: { type: "boolean", alias: "a", description: "list: the sessions of every directory, not just this one" },
  format: { type: "string", alias: "f", valueHint: "md|json", description: "export: a Markdown transcript (the default) or the JSON record" },
  write: { type: "boolean", description: "repair: fix the problems found (a backup is kept)" },
  ...MODEL_FLAGS,
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/** `shiro sessions …`: saved sessions for scripts. Never loads the AI SDK. Returns the exit code. */
export async function runSessionsCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const [first, ...rest] = argv;
  const sub = first === undefined || first.startsWith("-") ? "list" : first;
  const args = parseFlags(sub === "list" && first !== "list" ? argv : rest, SESSIONS_FLAGS, "shiro sessions");
  if (args.help) {
    process.stdout.write(commandHelp(first === undefined || first.startsWith("-") ? USAGE : (SUB_USAGE[sub === "remove" ? "rm" : sub] ?? USAGE), SESSIONS_FLAGS));
    return 0;
  }
  const home = shiroHome(env);
  const id = () => {
    const value = args._[0];
    if (!value) throw new ShiroError("usage", `sessions ${sub} needs a session id or a prefix of one: shiro sessions lists them.`);
    return String(value);
  };
  switch (sub) {
    case "list": {
      const listing = listSessions(home, args.all ? { all: true } : { cwd: process.cwd() });
      for (const warning of listing.warnings) process.stderr.write(`shiro: ${warning}\n`);
      if (args.json) {
        for (const s of listing.sessions) process.stdout.write(JSON.stringify(sessionJson(s)) + "\n");
        return 0;
      }
      if (listing.sessions.length === 0) {
        process.stdout.write(args.all ? "No saved sessions.\n" : "No saved sessions for this directory. Run: shiro sessions --all\n");
        return 0;
      }
      const rows = sessionRows(forksUnderParents(listing.sessions), { allIds: listing.allIds, now: new Date() });
      process.stdout.write(formatSessionTable(rows, { userHome: env.HOME, showCwd: args.all }) + "\n");
      return 0;
    }
    case "show":
      process.stdout.write(renderTranscript(findSession(home, id()), transcriptOptions(home)) + "\n");
      return 0;
    case "rm":
    case "remove":
      process.stdout.write(`Removed session ${deleteSession(home, id())}.\n`);
      return 0;
    case "export": {
      const format = args.format ?? "md";
      if (format !== "md" && format !== "json") throw new ShiroError("usage", `--format must be md or json, not "${format}".`);
      process.stdout.write(exportSession(findSession(home, id()), format, transcriptOptions(home)));
      return 0;
    }
    case "fork": {
      const source = findSession(home, id());
      const copy = forkSession(home, source);
      process.stdout.write(`${copy.id}\n`);
      process.stderr.write(`Copied session ${source.id} (${source.messages.length} messages) as ${copy.id}: shiro -r ${copy.id} continues the copy.\n`);
      return 0;
    }
    case "compact": {
      const { compactSessionCommand } = await import("./session-maintenance.ts");
      return compactSessionCommand(id(), flagsFrom(args), env);
    }
    case "repair": {
      const { repairSessionCommand } = await import("./session-maintenance.ts");
      return repairSessionCommand(id(), { write: args.write, cwd: process.cwd() }, env);
    }
    default:
      throw new ShiroError("usage", `unknown sessions command "${sub}". ${USAGE}`);
  }
}

/**
 * Tool calls shown with the subjects the live screen gives them, the memory tools' included
 * (`→ remember <the note>`, not its kind). Their store is never read or written here: a tool's
 * subject comes from its input alone, and creating the store touches no file.
 */
function transcriptOptions(home: string) {
  const tools = toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home, projectRoot: process.cwd() }) });
  return { subjectOf: subjectsOf(tools), subjectKind: subjectKindsOf(tools) };
}
