import { posix } from "node:path";
import { commandParts } from "./command-parts.ts";
import { defaultDecision, isProtectedSecret, type GatedTool } from "./defaults.ts";
import { lastMatchingRule, type PermissionRule } from "./rules.ts";
import type { Decision } from "../config/permission-schema.ts";

/** The outcome of the rules for one call, and what decided it. */
export type Verdict = {
  decision: Decision;
  /** The config rule that decided; undefined when the default did. */
  rule?: PermissionRule;
  /** The subject (or, for bash, the piece of the command line) the deciding rule matched. */
  matched: string;
};

const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * What the config rules (last match wins) or, failing them, the tool's default say about a call.
 * A secrets file is denied before any rule is read (defaults.ts). A path subject is matched
 * relative to the workspace root. For a command each simple command in the line (nested ones
 * included, `cd` left out) is judged on its own, the whole line too when a rule matches it, and
 * the strictest answer wins: `"git status*": "allow"` does not let `git status; rm -rf src`
 * through, and `"npm publish*": "deny"` also stops `cd pkg && npm publish`. Pure.
 */
export function decideCall(rules: readonly PermissionRule[], tool: GatedTool, subject: string, where: { root: string; cwd: string }): Verdict {
  if (isProtectedSecret(tool, subject)) return { decision: "deny", matched: subject };
  if (tool.subject.kind !== "command") {
    const matched = tool.subject.kind === "path" ? workspacePath(subject, where) : subject;
    const rule = lastMatchingRule(rules, tool.name, matched);
    return { decision: rule?.decision ?? defaultDecision(tool, matched), rule, matched };
  }
  // The whole line counts only through a rule that matches it; each simple command also gets the default.
  const whole = subject.trim();
  const wholeRule = lastMatchingRule(rules, tool.name, whole);
  const verdicts: Verdict[] = wholeRule ? [{ decision: wholeRule.decision, rule: wholeRule, matched: whole }] : [];
  const parts = [...new Set(commandParts(subject).map((part) => part.source))];
  for (const piece of parts.length > 0 ? parts : [whole]) {
    const rule = lastMatchingRule(rules, tool.name, piece);
    verdicts.push({ decision: rule?.decision ?? defaultDecision(tool, piece), rule, matched: piece });
  }
  return strictestVerdict(verdicts);
}

/**
 * A call that touches several paths (apply_patch, move_file): each path judged as decideCall
 * judges a path subject, and the strictest answer wins, so `"write_file": {"docs/*": "allow"}`-style
 * rules and the secrets deny hold for every file a patch names. Pure.
 */
export function decidePaths(rules: readonly PermissionRule[], tool: GatedTool, paths: readonly string[], where: { root: string; cwd: string }): Verdict {
  return strictestVerdict(paths.map((path) => decideCall(rules, tool, path, where)));
}

function strictestVerdict(verdicts: readonly Verdict[]): Verdict {
  let strictest = verdicts[0];
  for (const verdict of verdicts) if (STRICTNESS[verdict.decision] > STRICTNESS[strictest!.decision]) strictest = verdict;
  return strictest!;
}

/**
 * A path as rules see it: relative to the workspace root with `/` separators (`src/a.ts`, `.` for
 * the root), whether the model wrote `./src/a.ts`, `src/../src/a.ts` or the absolute path; paths
 * outside the workspace stay absolute.
 */
export function workspacePath(path: string, where: { root: string; cwd: string }): string {
  const abs = posix.resolve(where.cwd, path.replaceAll("\\", "/"));
  const rel = posix.relative(where.root, abs);
  if (rel === "") return ".";
  return rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel) ? abs : rel;
}
