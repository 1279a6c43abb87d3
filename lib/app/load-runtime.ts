import { loadSettings, userHomeOf } from "../config/load.ts";
import { openCommands, sandboxSupportSoon } from "../sandbox/index.ts";
import { resolveSettings, type Flags } from "../config/resolve.ts";
import { findProjectRoot } from "../fs/project-root.ts";
import type { Environment } from "../agent/instructions.ts";
import { loadProjectDocs } from "../agent/project-docs.ts";
import type { Runtime } from "../agent/runtime.ts";
import { callOptions } from "../provider/call-options.ts";
import { resolveContextWindow } from "../provider/context-window.ts";
import { createModel } from "../provider/model.ts";
import { loadSkills, skillSources } from "../skills/skills.ts";

/**
 * Loads config, applies precedence, builds the model, learns its context window (the config,
 * else the server, asked once and cached, else the built-in table), reads the project's
 * instruction files and sets up where commands run (the sandbox is started as the first turn begins).
 */
export async function loadRuntime(flags: Flags, processEnv: Record<string, string | undefined>, cwd: string): Promise<Runtime> {
  const { home, config, settings } = await loadSettings(flags, processEnv);
  const root = findProjectRoot(cwd);
  const workspace: Environment = {
    cwd,
    root,
    date: new Date().toISOString().slice(0, 10),
    platform: `${process.platform} ${process.arch}`,
    shell: "bash",
    userHome: userHomeOf(processEnv),
  };
  // Whether the sandbox can run here is tried while the rest loads, not before it.
  const support = settings.sandbox.mode === "on" ? sandboxSupportSoon(processEnv, root) : undefined;
  const [model, window, projectDocs] = await Promise.all([createModel(settings), resolveContextWindow({ settings, config, home }), loadProjectDocs(root, cwd)]);
  const skills = loadSkills(skillSources({ root, shiroHome: home, home: workspace.userHome }));
  const commands = openCommands({ settings: settings.sandbox, root, shiroHome: home, env: processEnv, apiKey: settings.apiKey, ...(support ? { support: await support } : {}) });
  return { home, config, settings, model, workspace, projectDocs, window, callOptions: callOptions(settings, window.info.requestOutputTokens), commands, skills };
}

/** The runtime for another model on the same server (`/model`): its own client, options and window. */
export async function runtimeWithModel(runtime: Runtime, modelId: string): Promise<Runtime> {
  const settings = { ...runtime.settings, model: modelId };
  const [model, window] = await Promise.all([createModel(settings), resolveContextWindow({ settings, config: runtime.config, home: runtime.home })]);
  return { ...runtime, settings, model, window, callOptions: callOptions(settings, window.info.requestOutputTokens) };
}

/**
 * The runtime for one turn started by a custom command whose front matter names an `agent` or a
 * `model`: the same settings, resolved again with those two (flags as the session has them
 * otherwise). Throws ShiroError for an unknown agent.
 */
export async function runtimeForCommand(
  runtime: Runtime,
  change: { agent?: string; model?: string },
  flags: Flags,
  processEnv: Record<string, string | undefined>,
): Promise<Runtime> {
  let next = runtime;
  if (change.agent && change.agent !== next.settings.agent) next = runtimeResolvedAgain(next, { ...flags, agent: change.agent }, processEnv);
  if (change.model && change.model !== next.settings.model) next = await runtimeWithModel(next, change.model);
  return next;
}

/**
 * The runtime with its settings resolved again, by the same precedence, from `flags` (the run's,
 * with a change: an agent variant, a thinking level) on the runtime's own model: the one
 * re-resolve behind `/agent`, `/think` and a custom command's agent. Throws ShiroError for an
 * unknown agent or level.
 */
export function runtimeResolvedAgain(runtime: Runtime, flags: Flags, processEnv: Record<string, string | undefined>): Runtime {
  const settings = resolveSettings({ ...flags, model: runtime.settings.model }, processEnv, runtime.config);
  return { ...runtime, settings, callOptions: callOptions(settings, runtime.window.info.requestOutputTokens) };
}
