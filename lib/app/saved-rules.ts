import type { Runtime } from "../agent/runtime.ts";
import { configPath } from "../config/load.ts";
import { updateConfigFile } from "../config/update-file.ts";
import type { Grant } from "../permissions/index.ts";
import { ruleSection, ruleText, withSavedGrant, type RuleScope } from "../permissions/save-rule.ts";

/** A path under the user's home as `~/…`. */
const shownHome = (runtime: Runtime, path: string) => (path.startsWith(runtime.workspace.userHome + "/") ? "~" + path.slice(runtime.workspace.userHome.length) : path);

/** Where an "always" for this project or every project is written, and the rule as it will read there. */
export function ruleTarget(runtime: Runtime, grant: Grant, scope: Exclude<RuleScope, "session">): { file: string; section: string; rule: string } {
  return { file: shownHome(runtime, configPath(runtime.home)), section: ruleSection(scope, runtime.workspace.root), rule: ruleText(grant) };
}

/** Saves an "always" answer under `alwaysAllow` in the user's config (never the repository's); throws ShiroError when the file is broken. */
export async function saveRule(runtime: Runtime, grant: Grant, scope: Exclude<RuleScope, "session">): Promise<void> {
  const root = runtime.workspace.root;
  await updateConfigFile(configPath(runtime.home), (config) => {
    if (scope === "global") return { ...config, alwaysAllow: withSavedGrant(config.alwaysAllow, grant) };
    const projects = { ...(config.projects ?? {}) };
    projects[root] = { ...(projects[root] ?? {}), alwaysAllow: withSavedGrant(projects[root]?.alwaysAllow, grant) };
    return { ...config, projects };
  });
}
