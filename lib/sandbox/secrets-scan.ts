import { readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isSensitivePath } from "../fs/sensitive-path.ts";

/** Folders not searched for secrets files: version-control data and dependency trees. */
const SKIPPED = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache"]);
/** A workspace bigger than this is not searched further; what was found is masked. */
const MAX_ENTRIES = 200_000;
const MAX_DEPTH = 24;

/**
 * The secrets files (lib/fs/sensitive-path.ts) in the workspace, as sorted real paths, for the
 * sandbox to mask. Every folder is searched, .gitignored ones included (that is where `.env`
 * usually is), except SKIPPED; symlinks are not followed. Bounded by MAX_ENTRIES and MAX_DEPTH.
 */
export function findSecretsFiles(root: string): string[] {
  const found = new Set<string>();
  let seen = 0;
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) visit(path, depth + 1);
      } else if (entry.isFile() && isSensitivePath(entry.name)) {
        found.add(realOrSelf(path));
      }
    }
  };
  visit(realOrSelf(root), 0);
  return [...found].sort();
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
