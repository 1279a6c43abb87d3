import { loadSettings, shiroHome } from "../lib/config/load.ts";
import { ShiroError } from "../lib/errors.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { compactMemory, createMemoryStore, forgetNotes, formatNotes, formatNotesJson, memoryStorePath, openMemoryStore } from "../lib/memory/index.ts";
import { runInboxCommand } from "./memory-inbox.ts";
import { COMMON_FLAGS, MODEL_FLAGS, flagsFrom, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";

const USAGE = "usage: shiro memory list [--json] | forget <text> | path | compact | inbox [--json] | accept <n>… | reject <n>…";

/** Each sub-command's own usage, for `shiro memory <sub> --help`. */
const SUB_USAGE: Record<string, string> = {
  list: "usage: shiro memory [list] [--json]   the project notes shiro remembers for this project",
  forget: "usage: shiro memory forget <text>   remove the notes that match the text",
  path: "usage: shiro memory path   where this project's notes are stored",
  compact: "usage: shiro memory compact   the model merges duplicate and stale notes",
  inbox: "usage: shiro memory inbox [--json]   the notes suggested by headless runs, numbered, waiting for accept or reject",
  accept: "usage: shiro memory accept <n>…   keep suggested notes <n> (as shiro memory inbox numbers them) in project memory",
  reject: "usage: shiro memory reject <n>…   drop suggested notes <n> (as shiro memory inbox numbers them)",
};

/** `shiro memory`'s flags; the model flags are for `compact`. */
export const MEMORY_FLAGS = {
  json: { type: "boolean", description: "list, inbox: the notes as one JSON document" },
  ...MODEL_FLAGS,
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/** `shiro memory …`: project memory for scripts. Returns the exit code. */
export async function runMemoryCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const [first, ...rest] = argv;
  const sub = first === undefined || first.startsWith("-") ? "list" : first;
  const args = parseFlags(sub === "list" && first !== "list" ? argv : rest, MEMORY_FLAGS, "shiro memory");
  if (args.help) {
    process.stdout.write(commandHelp(first === undefined || first.startsWith("-") ? USAGE : (SUB_USAGE[sub] ?? USAGE), MEMORY_FLAGS));
    return 0;
  }
  const home = shiroHome(env);
  const root = findProjectRoot(process.cwd());
  const opts = { home, projectRoot: root };
  switch (sub) {
    case "path":
      process.stdout.write(memoryStorePath(home, root) + "\n");
      return 0;
    case "list": {
      const { store, entries, notice } = await openMemoryStore(opts);
      if (notice) process.stderr.write(`shiro: ${notice}\n`);
      process.stdout.write((args.json ? formatNotesJson(entries, store.path) : formatNotes(entries, { path: store.path })) + "\n");
      return 0;
    }
    case "forget": {
      const text = args._.join(" ").trim();
      if (!text) throw new ShiroError("usage", "shiro memory forget needs the text (or part of it) of the note to remove.");
      const result = await forgetNotes(createMemoryStore(opts), text);
      if (!result.ok) throw new ShiroError("usage", result.message);
      process.stdout.write(result.message + "\n");
      return 0;
    }
    case "compact": {
      const { createModel } = await import("../lib/provider/model.ts");
      const { generate } = await import("../lib/agent/generate.ts");
      const { callOptions } = await import("../lib/provider/call-options.ts");
      const flags = flagsFrom(args);
      const outcome = await compactMemory({
        store: createMemoryStore(opts),
        // The settings (and so the key) only when there is something to merge: a small store says so without them.
        generate: async (prompt) => {
          const { settings } = await loadSettings(flags, env);
          const model = await createModel(settings);
          return generate({ model, settings, callOptions: callOptions(settings) }, { prompt }, { onRetry: (notice) => process.stderr.write(`shiro: ${notice}\n`) });
        },
      });
      if (outcome.notice) process.stderr.write(`shiro: ${outcome.notice}\n`);
      process.stdout.write(outcome.message + "\n");
      if (outcome.type === "noop" && outcome.notes > 0) process.stdout.write("shiro memory list shows them.\n");
      return outcome.type === "rejected" ? 1 : 0;
    }
    case "inbox":
    case "accept":
    case "reject":
      return runInboxCommand(sub, args._, { ...opts, json: args.json === true });
    default:
      throw new ShiroError("usage", `unknown memory command "${sub}". ${USAGE}`);
  }
}
