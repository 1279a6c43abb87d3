import { lstatSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isInside } from "../fs/workspace.ts";

/**
 * The entries of a git folder that make git run a program or read configuration: the config
 * and the worktree config, `commondir` (which moves the whole configuration elsewhere), the
 * hooks, `info` (attributes that pick filters), linked worktrees' and submodules' own folders,
 * and the old-style remote definitions (a remote that is a local repository runs that
 * repository's hooks on push).
 */
export const GUARDED_ENTRIES = ["config", "config.worktree", "commondir", "hooks", "info", "worktrees", "modules", "remotes", "branches"] as const;

/** Configuration files and a hooks folder that the repository's config points at (gitConfigPaths). */
export type GitConfigPaths = { includes: string[]; hooksPath?: string };

/**
 * How the sandbox keeps git's configuration in the workspace out of a command's reach (see
 * docs/permissions.md, "git"): every git folder present at the start is bound onto itself (a
 * mount point cannot be renamed, replaced or removed, so `mv .git .git-old` fails) and its
 * guarded entries that exist are read-only; `.git` files (`gitdir: …`), included config files
 * and a hooks folder inside the workspace are read-only too. What could not be mounted because it
 * did not exist yet is listed in `absent`, for the check after each command (git-check.ts).
 */
export type GitShield = {
  /** Git folders bound onto themselves, writable (objects, refs, index: `git add` and `git commit` work). */
  dirs: string[];
  /** Read-only in place. */
  readOnly: string[];
  /** Each place and read-only entry present at the start, with its inode, to tell it from one put in its stead. */
  held: Map<string, number>;
  /** Guarded paths that did not exist at the start: one that appears is blocked. */
  absent: string[];
};

/**
 * The shield for the git places found in the workspace (scanWorkspace: `.git` entries and folders
 * git takes as repositories) and the paths the repository's config names. Reads only lstat.
 */
export function planGitShield(root: string, places: readonly string[], config: GitConfigPaths): GitShield {
  const shield: GitShield = { dirs: [], readOnly: [], held: new Map(), absent: [] };
  const hold = (path: string, readOnly: boolean): boolean => {
    const ino = inodeOf(path);
    if (ino === undefined) return false;
    shield.held.set(path, ino);
    if (readOnly && !shield.readOnly.includes(path)) shield.readOnly.push(path);
    return true;
  };
  for (const place of places) {
    if (!isInside(root, place)) continue;
    const kind = kindOf(place);
    if (kind === "file") hold(place, true);
    else if (kind === "link") hold(place, false); // cannot be mounted; one put in its stead is checked
    else if (kind === "dir") {
      hold(place, false);
      if (place !== root) shield.dirs.push(place);
      for (const name of GUARDED_ENTRIES) {
        const entry = join(place, name);
        if (!hold(entry, true)) shield.absent.push(entry);
      }
    }
  }
  for (const path of [...config.includes, ...(config.hooksPath ? [config.hooksPath] : [])]) {
    if (!isInside(root, path) || path === root) continue;
    if (!hold(path, true)) shield.absent.push(path);
  }
  return shield;
}

/**
 * The config files the repository's configuration includes (`include.path`, `includeIf.*.path`,
 * in every scope, resolved as git does: relative to the including file, `~/` from the home) and
 * `core.hooksPath` (relative to the workspace root), from `git config --list --show-origin`
 * run in the root, which reads files and runs no program. Empty without git or a repository.
 */
export function gitConfigPaths(root: string, git: string | undefined, env: Record<string, string | undefined>): GitConfigPaths {
  const none: GitConfigPaths = { includes: [] };
  if (!git) return none;
  let out: string;
  try {
    const run = Bun.spawnSync([git, "config", "--includes", "--list", "--show-origin", "-z"], {
      cwd: root,
      env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: env.HOME ?? "/nonexistent", ...(env.XDG_CONFIG_HOME ? { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME } : {}) },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    if (run.exitCode !== 0) return none;
    out = run.stdout.toString();
  } catch {
    return none;
  }
  const home = env.HOME;
  const expand = (value: string, base: string): string | undefined => {
    if (value.startsWith("~/")) return home ? join(home, value.slice(2)) : undefined;
    return isAbsolute(value) ? value : resolve(base, value);
  };
  const parts = out.split("\0");
  const paths: GitConfigPaths = { includes: [] };
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = parts[i]!;
    const entry = parts[i + 1]!;
    const newline = entry.indexOf("\n");
    const key = newline === -1 ? entry : entry.slice(0, newline);
    const value = newline === -1 ? "" : entry.slice(newline + 1);
    const file = origin.startsWith("file:") ? origin.slice(5) : undefined;
    if (/^include(?:if\..+)?\.path$/.test(key) && file) {
      const path = expand(value, dirname(resolve(root, file)));
      if (path) paths.includes.push(path);
    } else if (key === "core.hookspath" && value) {
      paths.hooksPath = expand(value, root);
    }
  }
  return paths;
}

function inodeOf(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

function kindOf(path: string): "file" | "dir" | "link" | undefined {
  try {
    const st = lstatSync(path);
    return st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}
