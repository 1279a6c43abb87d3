import type { PermissionConfig } from "../config/permission-schema.ts";
import type { Grant } from "./session-grants.ts";

/** Where an "always" answer is kept: this session only (memory), this project, or every project (the user's config). */
export type RuleScope = "session" | "project" | "global";

/** The config section a saved rule goes to: `permission`, or `projects."<root>".permission`. */
export function ruleSection(scope: Exclude<RuleScope, "session">, root: string): string {
  return scope === "global" ? "permission" : `projects.${JSON.stringify(root)}.permission`;
}

/** The rule as it will read in the config file: `"bash": { "git *": "allow" }`, or `"edit_file": "allow"`. */
export function ruleText(grant: Grant): string {
  return grant.pattern === undefined ? `${JSON.stringify(grant.tool)}: "allow"` : `${JSON.stringify(grant.tool)}: { ${JSON.stringify(grant.pattern)}: "allow" }`;
}

/**
 * `permission` with the grant added as an allow rule, placed last so that it wins over what was
 * there (the last matching rule wins). A tool whose value was one decision (`"bash": "ask"`)
 * becomes an object that keeps it as `"*"` first. Pure: returns a new object.
 */
export function withAllowRule(permission: PermissionConfig | undefined, grant: Grant): PermissionConfig {
  const next: PermissionConfig = { ...(permission ?? {}) };
  const current = next[grant.tool];
  delete next[grant.tool];
  if (grant.pattern === undefined) {
    next[grant.tool] = "allow";
    return next;
  }
  const subjects: Record<string, "allow" | "ask" | "deny"> = typeof current === "string" ? { "*": current } : { ...(current ?? {}) };
  delete subjects[grant.pattern];
  subjects[grant.pattern] = "allow";
  next[grant.tool] = subjects;
  return next;
}
