import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isInside } from "../fs/workspace.ts";

/**
 * Where a helper program shiro runs itself (bash, ripgrep, git, bwrap) lives: the first
 * executable of that name in an absolute `PATH` entry that lies outside the workspace, judged on
 * the entry's real path and the program's. Relative entries (`node_modules/.bin`, an empty entry
 * meaning the current directory) and entries inside the workspace are skipped, so a repository
 * cannot ship its own `rg` or `git` and have shiro run it. Undefined when there is none.
 */
export function findHelper(name: string, opts: { path: string | undefined; root: string }): string | undefined {
  const realRoot = realOrSelf(opts.root);
  for (const entry of safePathEntries(opts.path, opts.root)) {
    const candidate = join(entry, name);
    const real = realOrSelf(candidate);
    if (isInside(realRoot, real)) continue;
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The entries of a `PATH` a program may be looked up in without running the workspace's own:
 * absolute, and outside the workspace both as written and as they really are (symlinks followed).
 * A relative entry (`node_modules/.bin`, an empty one meaning the current directory) is dropped,
 * since it names a folder of whatever directory the command is in.
 */
export function safePathEntries(path: string | undefined, root: string): string[] {
  const realRoot = realOrSelf(root);
  return (path ?? "").split(":").filter((entry) => entry !== "" && isAbsolute(entry) && !isInside(root, entry) && !isInside(realRoot, realOrSelf(entry)));
}

/** `path` with only its safe entries (safePathEntries), as a PATH value. */
export function safePath(path: string | undefined, root: string): string {
  return safePathEntries(path, root).join(":");
}

/**
 * findHelper, asked once per name and workspace for the life of the process: a PATH change made
 * later (by a command, or by the environment of a child) never changes which program runs.
 */
export function helperCache(opts: { path: string | undefined; root: string }): (name: string) => string | undefined {
  const found = new Map<string, string | undefined>();
  return (name) => {
    if (!found.has(name)) found.set(name, findHelper(name, opts));
    return found.get(name);
  };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
