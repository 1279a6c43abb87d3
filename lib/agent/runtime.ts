import type { LanguageModel } from "ai";
import { loadSettings } from "../config/load.ts";
import type { Flags, Settings } from "../config/resolve.ts";
import type { ConfigFile } from "../config/schema.ts";
import { createModel } from "../model.ts";
import { findProjectRoot } from "../fs/project-root.ts";
import { loadProjectDocs, type ProjectDoc } from "./project-docs.ts";
import type { Environment } from "./instructions.ts";

/** Everything a session needs that comes from outside: settings, model, where it runs. */
export type Runtime = {
  home: string;
  /** The validated config file (permission rules, guard exceptions, …). */
  config: ConfigFile;
  settings: Settings;
  model: LanguageModel;
  env: Environment;
  projectDocs: ProjectDoc[];
};

/** Loads config, applies precedence, builds the model and reads the project's instruction files. */
export async function loadRuntime(flags: Flags, processEnv: Record<string, string | undefined>, cwd: string): Promise<Runtime> {
  const { home, config, settings } = await loadSettings(flags, processEnv);
  const model = await createModel(settings);
  const root = findProjectRoot(cwd);
  const env: Environment = {
    cwd,
    root,
    date: new Date().toISOString().slice(0, 10),
    platform: `${process.platform} ${process.arch}`,
    shell: "bash",
  };
  return { home, config, settings, model, env, projectDocs: await loadProjectDocs(root, cwd) };
}
