import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";
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
  /**
   * In order: git folders bound onto themselves, writable (objects, refs, index: `git add` and
   * `git commit` work), each followed by its guarded entries read-only; `.git` files, included
   * config files and a hooks folder read-only. A folder inside another's guarded entry (a linked
   * worktree's, in `worktrees`) comes after it, so it is writable again.
   */
  mounts: Array<["bind" | "ro", string]>;
  /** Each place and read-only entry present at the start, with its inode, to tell it from one put in its stead. */
  held: Map<string, number>;
  /** Guarded paths that did not exist at the start: one that appears is blocked. */
  absent: string[];
};

/**
 * The shield for the git places found in the workspace (scanWorkspace: `.git` entries and folders
 * git takes as repositories) and the paths the repository's config names. `writable` are the
 * other places the sandbox lets commands write (config `sandboxWritable`): the git folder a `.git`
 * file points to (a linked worktree's, a submodule's) and its common folder are shielded too when
 * they lie there, or in the workspace. Reads only lstat and `.git` files.
 */
export function planGitShield(root: string, places: readonly string[], config: GitConfigPaths, writable: readonly string[] = []): GitShield {
  const shield: GitShield = { mounts: [], held: new Map(), absent: [] };
  const areas = [root, ...writable];
  const writableHere = (path: string) => areas.some((area) => isInside(area, path));
  // Each writable place that is a repository, or holds one at its top (a sibling checkout, a
  // local bare repository); repositories deeper inside them are not searched for.
  const opened = writable.flatMap((dir) => [join(dir, ".git"), ...(isGitDir(dir) ? [dir] : [])]).filter((path) => kindOf(path) !== undefined);
  const all = [...places.filter((place) => isInside(root, place)), ...opened];
  for (const place of [...all]) {
    if (kindOf(place) !== "file") continue;
    const gitDir = pointedAt(place, "gitdir: ");
    const common = gitDir ? pointedAt(join(gitDir, "commondir"), "") : undefined;
    for (const dir of [gitDir, common]) if (dir && kindOf(dir) === "dir" && writableHere(dir) && !all.includes(dir)) all.push(dir);
  }
  const hold = (path: string, readOnly: boolean): boolean => {
    const ino = inodeOf(path);
    if (ino === undefined) return false;
    shield.held.set(path, ino);
    if (readOnly && !shield.mounts.some(([kind, p]) => kind === "ro" && p === path)) shield.mounts.push(["ro", path]);
    return true;
  };
  all.sort((a, b) => a.length - b.length);
  for (const place of all) {
    const kind = kindOf(place);
    if (kind === "file") hold(place, true);
    else if (kind === "link") hold(place, false); // cannot be mounted; one put in its stead is checked
    else if (kind === "dir") {
      hold(place, false);
      if (place !== root) shield.mounts.push(["bind", place]);
      for (const name of GUARDED_ENTRIES) {
        const entry = join(place, name);
        if (!hold(entry, true)) shield.absent.push(entry);
      }
    }
  }
  for (const path of [...config.includes, ...(config.hooksPath ? [config.hooksPath] : [])]) {
    if (!writableHere(path) || areas.includes(path)) continue;
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
      // A FIFO where an included file should be never answers: git is stopped instead of shiro waiting.
      timeout: 3_000,
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

/**
 * The start of a small regular file, or undefined: opened without following a symlink and without
 * waiting (a FIFO put where a file was expected must not stall shiro), and read only when it is a
 * plain file.
 */
export function readSmallFile(path: string, max = 64 * 1024): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(max);
    const size = readSync(fd, buffer, 0, max, 0);
    return buffer.subarray(0, size).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The folder a `.git` file (`gitdir: …`) or a `commondir` file names, resolved from the file's folder; undefined when there is none. */
function pointedAt(file: string, prefix: string): string | undefined {
  try {
    const text = (readSmallFile(file) ?? "").split("\n")[0]!.trim();
    if (!text.startsWith(prefix) || text.length === prefix.length) return undefined;
    return resolve(dirname(file), text.slice(prefix.length));
  } catch {
    return undefined;
  }
}

/** What git checks to take a folder for a repository: a `HEAD` beside `objects` and `refs` folders. */
function isGitDir(dir: string): boolean {
  return kindOf(join(dir, "HEAD")) === "file" && kindOf(join(dir, "objects")) === "dir" && kindOf(join(dir, "refs")) === "dir";
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
