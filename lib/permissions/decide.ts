import { posix } from "node:path";
import { commandParts } from "./command-parts.ts";
import { physicalPath } from "./fs-paths.ts";
import { matchPattern } from "./match-pattern.ts";
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
  /**
   * Set on an `ask` for a command that runs code shiro cannot read (`python3 -c …`) while a deny
   * rule could apply inside it: why it cannot be read. The policy asks every time, and refuses it
   * headless and under --yolo.
   */
  opaque?: string;
};

const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * What the config rules (last match wins) or, failing them, the tool's default say about a call.
 * A secrets file is denied before any rule is read (defaults.ts). A path subject is matched
 * relative to the workspace root. For a command each simple command in the line (nested ones
 * included, `cd` left out) is judged on its own, the whole line too when a rule matches it, and
 * the strictest answer wins: `"git status*": "allow"` does not let `git status; rm -rf src`
 * through, and `"npm publish*": "deny"` also stops `cd pkg && npm publish`.
 *
 * Each piece is matched as written and, when a rule matches it, as it runs: wrappers and
 * assignments peeled, quotes removed, the program by its basename (CommandPart.unwrapped), so
 * `"curl *": "deny"` also stops `/usr/bin/curl`, `env curl`, `c''url`, `X=1 curl`, `time curl`
 * and `xargs curl`. The unwrapped form never loosens: it counts only through a rule that matches
 * it, and the strictest answer still wins (`sudo git status` is not allowed by `"git status*"`).
 * When a deny rule for the tool exists, a piece whose program is computed when it runs
 * (`$(echo curl) x`) is denied: no rule can be checked against it, and one that runs code shiro
 * cannot read (`python3 -c`, `node -e`, awk `system(x)`) asks (Verdict.opaque). A path is matched where it is
 * written and where it really is (a symlink `m -> migrations` is matched as `migrations/…` too).
 * Reads the file system (real paths, globs), never changes it.
 */
export function decideCall(rules: readonly PermissionRule[], tool: GatedTool, subject: string, where: { root: string; cwd: string }): Verdict {
  if (isProtectedSecret(tool, subject, where.cwd)) return { decision: "deny", matched: subject };
  if (tool.subject.kind === "path") {
    const written = workspacePath(subject, where);
    const real = workspacePath(physicalPath(posix.resolve(where.cwd, subject), true), { root: physicalPath(where.root, true), cwd: where.cwd });
    if (real !== written && isProtectedSecret(tool, real)) return { decision: "deny", matched: real };
    const forms = real === written ? [written] : [written, real];
    return strictestVerdict(forms.map((matched) => {
      const rule = lastMatchingRule(rules, tool.name, matched);
      return { decision: rule?.decision ?? defaultDecision(tool, matched), rule, matched };
    }));
  }
  if (tool.subject.kind !== "command") {
    const rule = lastMatchingRule(rules, tool.name, subject);
    return { decision: rule?.decision ?? defaultDecision(tool, subject), rule, matched: subject };
  }
  // The whole line counts only through a rule that matches it; each simple command also gets the default.
  const whole = subject.trim();
  const wholeRule = lastMatchingRule(rules, tool.name, whole);
  const verdicts: Verdict[] = wholeRule ? [{ decision: wholeRule.decision, rule: wholeRule, matched: whole }] : [];
  const parts = commandParts(subject);
  const denyRule = [...rules].reverse().find((rule) => rule.decision === "deny" && matchPattern(rule.toolPattern, tool.name));
  const seen = new Set<string>();
  for (const part of parts.length > 0 ? parts : [{ source: whole, program: undefined, writesFile: false }]) {
    if (seen.has(part.source)) continue;
    seen.add(part.source);
    const rule = lastMatchingRule(rules, tool.name, part.source);
    verdicts.push({ decision: rule?.decision ?? defaultDecision(tool, part.source), rule, matched: part.source });
    if (part.unwrapped !== undefined && part.unwrapped !== part.source) {
      const unwrappedRule = lastMatchingRule(rules, tool.name, part.unwrapped);
      if (unwrappedRule) verdicts.push({ decision: unwrappedRule.decision, rule: unwrappedRule, matched: part.unwrapped });
    }
    if (part.programExpands && denyRule) verdicts.push({ decision: "deny", rule: denyRule, matched: part.source });
    if (part.opaque && denyRule) verdicts.push({ decision: "ask", rule: denyRule, matched: part.source, opaque: part.opaque });
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

/**
 * The strictest verdict. Among equal `ask`s, one a rule gave wins over the default's, so the
 * policy can tell "the user's rule says ask" (never lifted by a mode) from "nothing said allow".
 */
function strictestVerdict(verdicts: readonly Verdict[]): Verdict {
  let strictest = verdicts[0]!;
  for (const verdict of verdicts) {
    const stricter = STRICTNESS[verdict.decision] > STRICTNESS[strictest.decision];
    const bothAsk = verdict.decision === "ask" && strictest.decision === "ask";
    const ruledAsk = bothAsk && verdict.rule !== undefined && strictest.rule === undefined;
    const opaqueAsk = bothAsk && verdict.opaque !== undefined && strictest.opaque === undefined;
    if (stricter || ruledAsk || opaqueAsk) strictest = verdict;
  }
  return strictest;
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
