import { existsSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/**
 * The one owner of git's hardening: what every git shiro starts gets, whether a command the model
 * runs (gitSafetyEnv) or shiro's own read-only git tool (gitReadSafetyEnv, lib/tools/git/run-git.ts).
 * The settings arrive through `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, which git ranks above every
 * config file (with `-c`), and which every git that git starts in turn (a submodule's) inherits.
 *
 * Always: no fsmonitor program, no hooks, no pager.
 */
const ALWAYS: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
];

/**
 * For the read-only git tool, also: no external diff, no signature checks (log.showSignature runs
 * gpg), no submodule summaries (which start git in every submodule). A read needs none of them.
 */
const READS: ReadonlyArray<readonly [string, string]> = [
  ["diff.external", ""],
  ["log.showSignature", "false"],
  ["status.submoduleSummary", "false"],
];

/**
 * What git runs in place of an external diff program the repository configured: git's own diff of
 * the two files, with every program switched off. Git calls it as `path old-file old-hex old-mode
 * new-file new-hex new-mode`.
 */
const PLAIN_DIFF = `sh -c 'git --no-pager diff --no-ext-diff --no-textconv --no-index -- "$2" "$5"; exit 0' shiro-diff`;

/** A repository-local setting that names a program, and the harmless value put over it. */
const PROGRAM_KEYS: ReadonlyArray<readonly [RegExp, (key: string) => string]> = [
  [/^diff\.external$/, () => PLAIN_DIFF],
  [/^diff\..+\.command$/, () => PLAIN_DIFF],
  [/^diff\..+\.textconv$/, () => "cat"],
  [/^filter\..+\.(?:clean|smudge|process)$/, () => ""],
  [/^filter\..+\.required$/, () => "false"],
  [/^merge\..+\.driver$/, () => "false"],
  [/^core\.(?:sshcommand|askpass|editor|gitproxy)$/, (key) => (key === "core.sshcommand" ? "ssh" : key === "core.editor" ? "false" : "")],
  [/^sequence\.editor$/, () => "false"],
  [/^gpg(?:\..+)?\.program$/, () => "gpg"],
  [/^credential\.helper$/, () => ""],
  [/^remote\..+\.uploadpack$/, () => "git-upload-pack"],
  [/^remote\..+\.receivepack$/, () => "git-receive-pack"],
  [/^pager\..+$/, () => "false"],
];

/**
 * The environment that neutralises the programs a hostile repository can make git run: always
 * fsmonitor, hooks and the pager; and, for settings the workspace's own `.git/config` (with its
 * includes) defines, external diff and textconv programs, filters, merge drivers, ssh/askpass/
 * editor/gpg/credential programs and aliases. The user's global config is left as it is: it
 * is theirs. `git` is the helper found by findHelper; without it, or outside a repository, only
 * the fixed settings are returned. Runs `git config --local` (which starts no other program).
 */
export function gitSafetyEnv(root: string, git: string | undefined): Readonly<Record<string, string>> {
  const local = git && existsSync(join(root, ".git")) ? cachedLocalConfig(root, git) : NO_LOCAL_CONFIG;
  // Built once per listing: a kept listing is the same array for as long as the files stand.
  let env = environments.get(local);
  if (!env) environments.set(local, (env = Object.freeze(safetyEnvFor(ALWAYS, local))));
  return env;
}

/**
 * gitSafetyEnv for shiro's own read-only git tool, stricter: READS too, and the program settings
 * of every scope neutralised (the user's global filters, diff drivers, credential and editor
 * programs included: a read needs none of them). `env` is the environment that git runs with (its
 * HOME and XDG_CONFIG_HOME decide which global config it reads). Lists the config afresh at each
 * call, as the tool's runs are few: `git config --list` starts no other program.
 */
export function gitReadSafetyEnv(root: string, git: string, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const scoped = Object.fromEntries(["PATH", "HOME", "XDG_CONFIG_HOME"].filter((name) => env[name] !== undefined).map((name) => [name, env[name]!]));
  return safetyEnvFor([...ALWAYS, ...READS], listConfig(root, git, ["--includes", "--list", "-z"], { PATH: "/usr/bin:/bin", ...scoped }));
}

const NO_LOCAL_CONFIG: Array<[string, string]> = [];
const environments = new WeakMap<ReadonlyArray<readonly [string, string]>, Readonly<Record<string, string>>>();

/**
 * The last listing of each repository's config, with the files it was read from and how they
 * stood: every command asks, and running git for each one cost 2–3 ms. A listing is used again
 * only while `.git/config` and every file it includes have the same inode, size, mtime and ctime
 * (a write changes the ctime, which no program can set back). Worktrees (`.git` a file) and
 * includes shiro cannot stat are listed afresh every time.
 */
const listings = new Map<string, { files: string[]; stamp: string; entries: Array<[string, string]> }>();

function cachedLocalConfig(root: string, git: string): Array<[string, string]> {
  const cached = listings.get(root);
  if (cached && stampOf(cached.files) === cached.stamp) return cached.entries;
  const entries = localConfig(root, git);
  const gitDir = join(root, ".git");
  const includes = entries.filter(([key]) => /^include(?:if\..+)?\.path$/.test(key)).map(([, value]) => value);
  const files = [join(gitDir, "config"), ...includes.map((path) => (isAbsolute(path) ? path : join(gitDir, path)))];
  const stamp = isDirectory(gitDir) && includes.every((path) => !path.startsWith("~")) ? stampOf(files) : undefined;
  if (stamp === undefined) listings.delete(root);
  else listings.set(root, { files, stamp, entries });
  return entries;
}

/** How the files stand now, or undefined when one cannot be read (then nothing is kept). */
function stampOf(files: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const file of files) {
    try {
      const st = statSync(file);
      parts.push(`${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
    } catch {
      return undefined;
    }
  }
  return parts.join("|");
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function safetyEnvFor(fixed: ReadonlyArray<readonly [string, string]>, local: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const pairs: Array<readonly [string, string]> = [...fixed];
  for (const [key, value] of local) {
    if (key.startsWith("alias.")) {
      // Any alias: `!…` runs a command, and one like `p = push --force` hides what git does from the guard.
      pairs.push([key, `!echo "shiro: the alias git ${key.slice(6)} from this repository's config is not run" >&2; exit 1`]);
      continue;
    }
    const rule = PROGRAM_KEYS.find(([pattern]) => pattern.test(key));
    if (rule && !pairs.some(([k]) => k === key)) pairs.push([key, rule[1](key)]);
  }
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length), GIT_PAGER: "cat" };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** `[key, value]` for every entry of the repository's own config, keys lower-cased as git prints them. */
function localConfig(root: string, git: string): Array<[string, string]> {
  return listConfig(root, git, ["--local", "--includes", "--list", "-z"], { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" });
}

/** `[key, value]` for every entry `git config <args>` lists in `root`; empty when git fails. */
function listConfig(root: string, git: string, args: readonly string[], env: Record<string, string>): Array<[string, string]> {
  try {
    const run = Bun.spawnSync([git, "config", ...args], {
      cwd: root,
      env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      // A FIFO where an included file should be never answers: git is stopped instead of shiro waiting.
      timeout: 3_000,
    });
    if (run.exitCode !== 0) return [];
    return configEntries(run.stdout.toString());
  } catch {
    return [];
  }
}

/** `git config -z --list`'s output as [key, value] pairs (a key with no value reads as ""). */
export function configEntries(listed: string): [string, string][] {
  return listed
    .split("\0")
    .filter(Boolean)
    .map((entry) => {
      const newline = entry.indexOf("\n");
      return newline === -1 ? [entry, ""] : [entry.slice(0, newline), entry.slice(newline + 1)];
    });
}
