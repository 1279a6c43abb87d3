import { parseArgs } from "citty";
import { configPath, loadConfigFile, shiroHome } from "../lib/config/load.ts";
import { ShiroError } from "../lib/errors.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { compactMemory, createMemoryStore, forgetNotes, formatNotes, formatNotesJson, memoryStorePath, openMemoryStore } from "../lib/memory/index.ts";

const USAGE = "usage: shiro memory list [--json] | forget <text> | path | compact";

/** `shiro memory …`: project memory for scripts. Returns the exit code. */
export async function runMemoryCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const [sub = "list", ...rest] = argv;
  const args = parseArgs(rest, { json: { type: "boolean" }, model: { type: "string", alias: "m" }, "base-url": { type: "string" }, api: { type: "string" }, provider: { type: "string" } });
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
      const { resolveSettings } = await import("../lib/config/resolve.ts");
      const { createModel } = await import("../lib/model.ts");
      const { generate } = await import("../lib/agent/generate.ts");
      const config = await loadConfigFile(configPath(home));
      const settings = resolveSettings({ model: args.model as string | undefined, baseURL: args["base-url"] as string | undefined, api: args.api as string | undefined, provider: args.provider as string | undefined }, env, config);
      const model = await createModel(settings);
      const outcome = await compactMemory({
        store: createMemoryStore(opts),
        generate: (prompt) => generate({ model, settings }, { prompt }),
      });
      if (outcome.notice) process.stderr.write(`shiro: ${outcome.notice}\n`);
      process.stdout.write(outcome.message + "\n");
      return outcome.type === "rejected" ? 1 : 0;
    }
    default:
      throw new ShiroError("usage", `unknown memory command "${sub}". ${USAGE}`);
  }
}
