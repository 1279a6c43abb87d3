import { configEntries as listedEntries } from "./git-safety.ts";
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { isInside } from "../fs/workspace.ts";
import { readSmallFile, type GitShield } from "./git-shield.ts";

/** How long the check waits for git to read a config file or the index (a FIFO in their place never answers). */
const GIT_TIMEOUT_MS = 3_000;

/** What the check found (`path`), why it counts, and what it renamed to take it out of git's way. */
export type GitBlocked = { path: string; why: string; moved: string; movedTo: string };

/** The suffix a blocked entry gets: git reads neither `.git.blocked-by-shiro` nor `config.blocked-by-shiro`. */
export const BLOCKED_SUFFIX = ".blocked-by-shiro";

/**
 * The check after each sandboxed command (and before the next, and as the session closes): what
 * the mounts of git-shield.ts could not cover, because it did not exist when the sandbox started.
 *
 * - a guarded entry, included config file or hooks folder that appeared (`absent`);
 * - a git place (a `.git` entry or a folder git takes as a repository, from the workspace search,
 *   plus every submodule path the root index lists, which `git status` visits) that was not
 *   there at the start, or not the same one (its inode differs), unless it is a plain repository
 *   whose config holds only settings that run nothing (SAFE_KEYS), without hooks, attributes,
 *   `commondir`, worktree config, linked worktrees, submodule folders or old-style remotes;
 *   a `.git` file or symlink made during the session always counts;
 * - in any git folder, a rebase or cherry-pick in progress whose to-do list holds an `exec`
 *   line, which `git rebase --continue` would run.
 *
 * Each one is renamed in place with BLOCKED_SUFFIX (a git folder's HEAD, anything else itself),
 * through its folder opened without following symlinks, so a swapped folder cannot move anything
 * outside the workspace or a `writable` place, and returned.
 * `git` is the helper used to read a config file (`git config --file … --list`, which runs no
 * program); without it any config of a new repository counts.
 */
export function checkGit(root: string, shield: GitShield, places: readonly string[], git: string | undefined, writable: readonly string[] = []): GitBlocked[] {
  const blocked: GitBlocked[] = [];
  const areas = [root, ...writable];
  // A git folder is taken out by its HEAD (without one, git does not take the folder for a
  // repository, and the workspace search does not find it again); anything else by its own name.
  const block = (path: string, why: string, moved = path) => {
    const area = areas.find((dir) => isInside(dir, moved) && dir !== moved);
    const movedTo = area === undefined ? undefined : moveAside(area, moved);
    if (movedTo) blocked.push({ path, why, moved, movedTo });
  };
  for (const path of shield.absent) if (lexists(path)) block(path, "appeared, and git reads it as configuration");
  const candidates = new Set([...places, ...submodulePaths(root, git)]);
  for (const place of candidates) {
    if (!isInside(root, place) || !lexists(place)) continue;
    const held = shield.held.get(place);
    let why: string | undefined;
    if (held === undefined || held !== inodeOf(place)) why = cachedProblem(place, git);
    if (why) block(place, why, isDir(place) ? join(place, "HEAD") : place);
    else if (isDir(place)) for (const [state, why] of execTodo(place)) block(state, why);
  }
  return blocked;
}

/** One line per blocked entry, for the command's output (the model and the user read it). */
export function blockedMessage(root: string, blocked: readonly GitBlocked[]): string {
  return blocked
    .map(({ path, why, moved, movedTo }) => `shiro: ${shown(root, path)} ${why}: git would run what it sets up on this machine, outside the sandbox. Renamed ${shown(root, moved)} to ${shown(root, movedTo)}, so git no longer reads it; review it before renaming it back.\n`)
    .join("");
}

/**
 * Settings a new repository's config may hold: what `git init`, `git clone`, `git remote add`,
 * `git checkout -b` and `git config user.*` write, none of which names a program. Anything else
 * (an fsmonitor, a filter, an include, a hooks path, an alias, `submodule.*.update`…) counts.
 */
const SAFE_KEYS = [
  /^core\.(?:repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|safecrlf|eol|quotepath|sparsecheckout|sparsecheckoutcone|abbrev|compression|bigfilethreshold|checkstat|trustctime)$/,
  /^extensions\.(?:objectformat|refstorage)$/,
  /^remote\..+\.(?:fetch|push|tagopt|prune|mirror)$/,
  /^branch\..+\.(?:remote|merge|rebase|pushremote|description)$/,
  /^submodule\..+\.active$/,
  /^(?:user\.name|user\.email|init\.defaultbranch|pull\.rebase|pull\.ff|push\.default|fetch\.prune|gc\.auto|index\.version|feature\.manyfiles)$/,
];
/** A remote's address: a network one only. A local path would run that repository's hooks on push. */
const URL_KEYS = /^(?:remote\..+\.(?:url|pushurl)|submodule\..+\.url)$/;
const NETWORK_URL = /^(?:(?:https?|ssh|git):\/\/|[\w.-]+@[\w.-]+:)/;

/**
 * newPlaceProblem, kept while the place and what it reads stand as they were: a harmless
 * repository a command cloned is then not read again (with a git run) around every command.
 */
function cachedProblem(place: string, git: string | undefined): string | undefined {
  const paths = ["", "HEAD", "config", "hooks", "info", "remotes", "branches"].map((name) => join(place, name));
  const stamp = paths.map((path) => stampOf(path, true) ?? "-").join("|");
  const cached = problems.get(place);
  if (cached?.stamp === stamp) return cached.why;
  const why = newPlaceProblem(place, git);
  // A change in the same clock tick as this look could leave the stamp as it is: kept only when older.
  if (paths.every((path) => changedBefore(path, Date.now() - RACY_MS))) problems.set(place, { stamp, why });
  else problems.delete(place);
  return why;
}
const RACY_MS = 1_000;

function changedBefore(path: string, time: number): boolean {
  try {
    const st = lstatSync(path);
    return st.ctimeMs < time && st.mtimeMs < time;
  } catch {
    return true;
  }
}
const problems = new Map<string, { stamp: string; why: string | undefined }>();

/** Why a git place made during the session could make git run something, or undefined when it cannot. */
function newPlaceProblem(place: string, git: string | undefined): string | undefined {
  let st;
  try {
    st = lstatSync(place);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return "is a symlink to another git folder";
  if (!st.isDirectory()) return "is a .git file pointing git at another folder (`gitdir:`)";
  if (!lexists(join(place, "HEAD"))) return undefined; // not a repository for git (one blocked before)
  for (const name of ["commondir", "config.worktree", "worktrees", "modules", join("info", "attributes")]) {
    if (lexists(join(place, name))) return `holds ${name}`;
  }
  // `git init` makes an empty `branches` folder; a remote defined there or in `remotes` counts.
  for (const name of ["remotes", "branches"]) if (!isEmptyOrMissing(join(place, name))) return `holds a remote in ${name}`;
  const hooks = join(place, "hooks");
  if (lexists(hooks)) {
    let names: string[];
    try {
      names = readdirSync(hooks);
    } catch {
      return "holds a hooks folder shiro cannot read";
    }
    const hook = names.find((name) => !name.endsWith(".sample") || !isFile(join(hooks, name)));
    if (hook !== undefined) return `holds the hook ${hook}`;
  }
  const config = join(place, "config");
  if (!lexists(config)) return undefined;
  if (!isFile(config)) return "holds a config that is not a plain file";
  const entries = configEntries(config, git);
  if (!entries) return "holds a config shiro cannot read";
  for (const [key, value] of entries) {
    if (URL_KEYS.test(key) ? !NETWORK_URL.test(value) : !SAFE_KEYS.some((safe) => safe.test(key))) return `holds a config that sets ${key}`;
  }
  return undefined;
}

/** `[key, value]` of a config file alone (no includes followed), or undefined when it cannot be read. */
function configEntries(file: string, git: string | undefined): Array<[string, string]> | undefined {
  if (!git) return statSync(file).size === 0 ? [] : undefined;
  try {
    const run = Bun.spawnSync([git, "config", "--file", file, "--list", "-z"], {
      cwd: "/",
      env: { PATH: "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: GIT_TIMEOUT_MS,
    });
    if (run.exitCode !== 0) return undefined;
    return listedEntries(run.stdout.toString());
  } catch {
    return undefined;
  }
}

/** The `.git` of every submodule path (gitlink) in the root repository's index: `git status` runs git there. */
function submodulePaths(root: string, git: string | undefined): string[] {
  if (!git || !isDir(join(root, ".git"))) return [];
  const index = join(root, ".git", "index");
  const stamp = stampOf(index);
  if (stamp === undefined) return [];
  const cached = gitlinks.get(root);
  if (cached?.stamp === stamp) return cached.paths;
  let paths: string[] = [];
  try {
    const run = Bun.spawnSync([git, "ls-files", "--stage", "-z"], {
      cwd: root,
      env: { PATH: "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent", GIT_DIR: join(root, ".git"), GIT_WORK_TREE: root, GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false", GIT_CONFIG_KEY_1: "core.hooksPath", GIT_CONFIG_VALUE_1: "/dev/null" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: GIT_TIMEOUT_MS,
    });
    if (run.exitCode === 0) {
      paths = run.stdout
        .toString()
        .split("\0")
        .filter((line) => line.startsWith("160000 "))
        .map((line) => join(root, line.slice(line.indexOf("\t") + 1), ".git"));
    }
  } catch {
    // no list: the workspace search still finds what is outside the skipped folders
  }
  if (changedBefore(index, Date.now() - RACY_MS)) gitlinks.set(root, { stamp, paths });
  else gitlinks.delete(root);
  return paths;
}
const gitlinks = new Map<string, { stamp: string; paths: string[] }>();

/** The state folders of a rebase or cherry-pick in `gitDir` whose to-do list runs a command, with why. */
function execTodo(gitDir: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [state, todo] of [["rebase-merge", "git-rebase-todo"], ["sequencer", "todo"]] as const) {
    const file = join(gitDir, state, todo);
    if (!lexists(file)) continue;
    // A to-do list shiro cannot read as a plain file (a FIFO, a symlink) counts too: git would follow it.
    const text = readSmallFile(file, 4 * 1024 * 1024);
    if (text === undefined) found.push([join(gitDir, state), "holds a to-do list that is not a plain file"]);
    else if (/^\s*(?:x|exec)\s/m.test(text)) found.push([join(gitDir, state), "holds a to-do list with an exec line, which `git rebase --continue` would run"]);
  }
  return found;
}

/**
 * Renames `path` to `<path>.blocked-by-shiro` (or `-2`, `-3`…), both inside the same folder,
 * through that folder opened one name at a time from the root without following a symlink: a
 * folder swapped for a symlink meanwhile makes the rename fail instead of reaching outside.
 * Returns the new path, or undefined when it could not be done.
 */
function moveAside(root: string, path: string): string | undefined {
  const parts = relative(root, dirname(path)).split(sep).filter(Boolean);
  if (parts.includes("..")) return undefined;
  const fds: number[] = [];
  try {
    fds.push(openSync(root, constants.O_RDONLY | constants.O_DIRECTORY));
    for (const part of parts) fds.push(openSync(`/proc/self/fd/${fds.at(-1)}/${part}`, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
    const dir = `/proc/self/fd/${fds.at(-1)}`;
    const name = basename(path);
    for (let n = 1; n < 100; n++) {
      const target = `${name}${BLOCKED_SUFFIX}${n === 1 ? "" : `-${n}`}`;
      if (existsSync(`${dir}/${target}`) || lexists(`${dir}/${target}`)) continue;
      renameSync(`${dir}/${name}`, `${dir}/${target}`);
      return join(dirname(path), target);
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

function shown(root: string, path: string): string {
  return relative(root, path) || ".";
}

function stampOf(path: string, noFollow = false): string | undefined {
  try {
    const st = noFollow ? lstatSync(path) : statSync(path);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return undefined;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isEmptyOrMissing(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
