import { matchPattern } from "./match-pattern.ts";
import type { Decision, PermissionConfig } from "../config/permission-schema.ts";

/** One rule of the `permission` config, in the order it was written. */
export type PermissionRule = {
  toolPattern: string;
  /** Undefined for `"tool": "decision"`: the rule covers every call of the tool. */
  subjectPattern?: string;
  decision: Decision;
  /** Where the rule comes from, as the user wrote it: `permission."bash"."npm publish*"`. */
  label: string;
};

/**
 * Flattens `permission` into a list in reading order: top-level keys in the order they appear,
 * and within an object its keys in order. That order is what "the last matching rule wins"
 * refers to. Pure.
 */
export function flattenRules(config: PermissionConfig | undefined, section = "permission"): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const [toolPattern, value] of Object.entries(config ?? {})) {
    if (typeof value === "string") {
      rules.push({ toolPattern, decision: value, label: `${section}.${JSON.stringify(toolPattern)}` });
      continue;
    }
    for (const [subjectPattern, decision] of Object.entries(value)) {
      rules.push({
        toolPattern,
        subjectPattern,
        decision,
        label: `${section}.${JSON.stringify(toolPattern)}.${JSON.stringify(subjectPattern)}`,
      });
    }
  }
  return rules;
}

/** The last rule that matches the tool and subject, or undefined when none does. */
export function lastMatchingRule(rules: readonly PermissionRule[], tool: string, subject: string): PermissionRule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!matchPattern(rule.toolPattern, tool)) continue;
    if (rule.subjectPattern === undefined || matchPattern(rule.subjectPattern, subject)) return rule;
  }
  return undefined;
}
