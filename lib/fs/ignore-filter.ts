import { readFileSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { matchIgnoreRules, parseGitignore, type IgnoreRule } from "./ignore.ts";

/** Names skipped at every level whatever .gitignore says: version-control data and installed packages. */
export const ALWAYS_SKIPPED_NAMES: ReadonlySet<string> = new Set([".git", "node_modules"]);

export type IgnoreFilter = {
  /**
   * True when the entry at `absPath` should be hidden. Only the entry itself is tested (see
   * matchIgnoreRules), so walk top-down and do not enter ignored directories.
   */
  isIgnored(absPath: string, isDir: boolean): boolean;
};

/**
 * Applies every .gitignore from `root` down to the entry's directory, deeper files overriding
 * shallower ones, as git does. Files are read lazily and cached for the filter's lifetime, so make
 * one filter per tool call; a missing or unreadable .gitignore counts as empty. Paths outside
 * `root` are tested against nothing but ALWAYS_SKIPPED_NAMES.
 */
export function createIgnoreFilter(root: string): IgnoreFilter {
  const cache = new Map<string, readonly IgnoreRule[]>();
  const rulesIn = (dir: string): readonly IgnoreRule[] => {
    let rules = cache.get(dir);
    if (!rules) {
      try {
        rules = parseGitignore(readFileSync(join(dir, ".gitignore"), "utf8"));
      } catch {
        rules = [];
      }
      cache.set(dir, rules);
    }
    return rules;
  };

  return {
    isIgnored(absPath, isDir) {
      if (ALWAYS_SKIPPED_NAMES.has(basename(absPath))) return true;
      const rel = relative(root, absPath);
      if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) return false;
      const parts = rel.split(sep);
      let ignored = false;
      for (let depth = 0; depth < parts.length; depth++) {
        const rules = rulesIn(join(root, ...parts.slice(0, depth)));
        if (rules.length === 0) continue;
        const verdict = matchIgnoreRules(rules, parts.slice(depth).join("/"), isDir);
        if (verdict !== undefined) ignored = verdict;
      }
      return ignored;
    },
  };
}
