import { statSync, type Stats } from "node:fs";
import { basename, dirname } from "node:path";
import { closeMatches } from "../text/close-matches.ts";
import { readdirConfined } from "./confined-ops.ts";

/**
 * What to tell the model when `abs` does not exist: similar names in the same directory when
 * there are some, or that the directory is missing too. `shown` is the path as displayed. The
 * directory is listed through the workspace `root` (lib/fs/confined.ts), never one outside.
 */
export function describeMissing(root: string, abs: string, shown: string): string {
  let siblings: string[];
  try {
    siblings = readdirConfined({ root }, dirname(abs)).map((entry) => entry.name);
  } catch {
    return `${shown} does not exist (nor does its directory ${dirname(shown)}). Use glob or list_dir to find the right path.`;
  }
  const similar = closeMatches(basename(abs), siblings);
  if (similar.length === 0) return `${shown} does not exist. Use glob or list_dir to find the right path.`;
  const prefix = dirname(shown) === "." ? "" : `${dirname(shown)}/`;
  return `${shown} does not exist. Did you mean ${similar.map((name) => prefix + name).join(", ")}?`;
}

/** stat() following symlinks, or undefined when nothing is there. Other failures (EACCES…) throw. */
export function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
