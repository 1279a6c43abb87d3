import type { AlwaysAllowConfig } from "../config/permission-schema.ts";
import { grantPatterns, type Grant } from "./session-grants.ts";

/** Where an "always" answer is kept: this session only (memory), this project, or every project (the user's config). */
export type RuleScope = "session" | "project" | "global";

/**
 * The config section a saved "always" goes to: `alwaysAllow`, or `projects."<root>".alwaysAllow`.
 * Not `permission`: a saved answer is a grant, checked after the user's own deny and ask rules,
 * never an allow rule that would win over them.
 */
export function ruleSection(scope: Exclude<RuleScope, "session">, root: string): string {
  return scope === "global" ? "alwaysAllow" : `projects.${JSON.stringify(root)}.alwaysAllow`;
}

/** The entry as it will read in the config file: `"bash": ["git commit *"]`, or `"edit_file": ["*"]`. */
export function ruleText(grant: Grant): string {
  return `${JSON.stringify(grant.tool)}: [${grantPatterns(grant).map((g) => JSON.stringify(g.pattern ?? "*")).join(", ")}]`;
}

/** `alwaysAllow` with the grant added to its tool's list (once; a whole-tool grant is `"*"`). Pure: returns a new object. */
export function withSavedGrant(saved: AlwaysAllowConfig | undefined, grant: Grant): AlwaysAllowConfig {
  const current = [...(saved?.[grant.tool] ?? [])];
  for (const pattern of grantPatterns(grant).map((g) => g.pattern ?? "*")) if (!current.includes(pattern)) current.push(pattern);
  return { ...(saved ?? {}), [grant.tool]: current };
}
