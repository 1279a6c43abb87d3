import { loadSettings } from "../config/load.ts";
import { openCommands } from "../sandbox/index.ts";
import type { Flags } from "../config/resolve.ts";
import { findProjectRoot } from "../fs/project-root.ts";
import type { Environment } from "../agent/instructions.ts";
import { loadProjectDocs } from "../agent/project-docs.ts";
import type { Runtime } from "../agent/runtime.ts";
import { callOptions } from "../provider/call-options.ts";
import { createModel } from "../provider/model.ts";

/**
 * Loads config, applies precedence, builds the model, reads the project's instruction files and
 * sets up where commands run (the sandbox is started at the first command, not here).
 */
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
  const commands = openCommands({ settings: settings.sandbox, root, shiroHome: home, env: processEnv, apiKey: settings.apiKey });
  return { home, config, settings, model, env, projectDocs: await loadProjectDocs(root, cwd), callOptions: callOptions(settings), commands };
}
