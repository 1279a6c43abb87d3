import { existsSync, readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import { forcingPushConfig } from "./git-config-read.ts";
import type { ShellWord } from "./shell-parse.ts";

/** git's global options that take a separate argument (`git -C dir push`). */
const GLOBAL_ARG_OPTIONS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

/**
 * Config keys that name a program git runs. Set on the command line (`git -c core.pager='…' log`)
 * they turn any git command into any command, past every rule that trusts git.
 */
const PROGRAM_KEY = /^(?:alias\..+|core\.(?:pager|editor|sshcommand|askpass|fsmonitor|hookspath|gitproxy)|diff\.external|diff\..+\.(?:textconv|command)|filter\..+\.(?:clean|smudge|process)|merge\..+\.driver|credential\..*helper|gpg(?:\..+)?\.program|sequence\.editor|pager\..+|remote\..+\.(?:uploadpack|receivepack)|uploadpack\.packobjectshook|protocol\..*allow|include\.path|includeif\..+)$/i;

/** The words of a git command after its global options, and the `-c` settings among those. */
export type GitCommand = { sub: string | undefined; args: string[]; settings: string[]; dir: string | undefined };

/** Splits `git [global options] <sub> <args>`; `-c key=value` and `--config-env key=VAR` are collected. */
export function parseGit(words: readonly ShellWord[]): GitCommand {
  let i = 0;
  const settings: string[] = [];
  let dir: string | undefined;
  while (i < words.length && words[i]!.text.startsWith("-")) {
    const text = words[i]!.text;
    if (text === "-c" || text === "--config-env") settings.push(words[i + 1]?.text ?? "");
    else if (text.startsWith("--config-env=")) settings.push(text.slice(13));
    else if (/^-c./.test(text)) settings.push(text.slice(2));
    if (text === "-C") dir = words[i + 1]?.text;
    i += GLOBAL_ARG_OPTIONS.has(text) ? 2 : 1;
  }
  return { sub: words[i]?.text, args: words.slice(i + 1).map((word) => word.text), settings, dir };
}

/** True when `arg` is `long` or a unique-looking prefix of it (`--har` for `--hard`): git accepts abbreviations. */
function isLong(arg: string, long: string): boolean {
  const name = arg.split("=")[0]!;
  return name.length > 2 && name.startsWith("--") && long.startsWith(name);
}

function hasLong(args: readonly string[], ...longs: string[]): boolean {
  return args.some((arg) => longs.some((long) => isLong(arg, long)));
}

/** True when a short-option cluster such as `-fdx` contains `letter`. */
function hasShort(args: readonly string[], letter: string): boolean {
  return args.some((arg) => /^-[A-Za-z]+$/.test(arg) && arg.slice(1).includes(letter));
}

/**
 * Config keys that make a later plain command lose work: a `+` refspec or `mirror` for a remote
 * turns `git push` into a forced push, a forced fetch refspec overwrites local branches, and
 * `clean.requireForce=false` lets `git clean` delete without `-f`.
 */
const FORCE_KEY = /^(?:remote\..+\.(?:push|mirror|fetch)|clean\.requireforce)$/i;

/** A setting that makes a later command force; a fetch refspec into refs/remotes/ is the usual one and passes. */
function forcing(key: string, value: string | undefined): boolean {
  if (!FORCE_KEY.test(key)) return false;
  return !(/\.fetch$/i.test(key) && value !== undefined && /^\+?[^:]*:refs\/remotes\//.test(value));
}

/**
 * Why a git command would destroy work or run a program hidden in its settings, or undefined.
 * Long options count by any prefix git accepts (`--har`, `--forc`, `--force-w`, `--del`).
 * Refused: settings on the command line (`-c`, `--config-env`) or written with `git config` that
 * name a program or make a later command force (`-c alias.p='push --force'`, `-c core.pager=…`,
 * `remote.origin.push=+main:main`); `reset --hard/--merge/--keep`; `clean` unless a dry run;
 * `push`/`send-pack` that force (`-f`, `--force*`, `+ref`), mirror, delete or prune; a forced
 * fetch into local branches; `branch -D`, `-f`, or `-M`/`-C` onto a branch that exists;
 * `checkout` of paths or `-f`, `checkout -B`/`switch -C` of an existing branch, `switch -f` /
 * `--discard-changes`; `restore` of the work tree; `rm -f`, `mv -f`; `stash drop/clear`;
 * `worktree remove -f`; `read-tree -u/--reset`, `checkout-index -f`, `update-ref`;
 * `gc --prune=…`, `prune`, `reflog expire/delete`; `submodule update -f`, `submodule deinit -f`.
 * A `git push` without refspecs is also refused when a config file git reads already makes it
 * force (git-config-read.ts). `cwd` is where the command runs, for telling a path from a branch
 * name and finding the repository; undefined when unknown. `home` locates the user's git config.
 */
export function gitRefusal(words: readonly ShellWord[], cwd: string | undefined, home?: string): string | undefined {
  const { sub, args, settings, dir } = parseGit(words);
  const programSetting = settings.find((setting) => PROGRAM_KEY.test(settingKey(setting)));
  if (programSetting) {
    return `it sets ${settingKey(programSetting)} on the command line, which makes git run a command of its choosing`;
  }
  const forceSetting = settings.find((setting) => forcing(settingKey(setting), setting.includes("=") ? setting.slice(setting.indexOf("=") + 1) : undefined));
  if (forceSetting) return `it sets ${settingKey(forceSetting)} on the command line, which can make git overwrite or delete work`;
  const at = cwd === undefined ? undefined : dir === undefined ? cwd : posix.resolve(cwd, dir);
  const force = hasLong(args, "--force") || hasShort(args, "f");
  switch (sub) {
    case "config":
      return configRefusal(args);
    case "reset":
      return hasLong(args, "--hard", "--merge", "--keep") ? "git reset --hard (or --merge, --keep) throws away uncommitted changes or commits" : undefined;
    case "clean":
      // Without -f git refuses, unless clean.requireForce is off in some config: only a dry run is sure.
      return hasLong(args, "--dry-run") || hasShort(args, "n") ? undefined : "git clean deletes untracked files, which git cannot bring back";
    case "push": {
      const refused = pushRefusal(args);
      if (refused || args.filter((arg) => !arg.startsWith("-")).length > 1) return refused;
      const setting = forcingPushConfig(at, home);
      return setting ? `a config file git reads sets ${setting}, so this push would force or delete refs on the remote` : undefined;
    }
    case "send-pack":
    case "http-push":
      return pushRefusal(args);
    case "fetch":
    case "pull":
      return fetchRefusal(args, force);
    case "branch": {
      const deleting = hasLong(args, "--delete") || hasShort(args, "d");
      if (hasShort(args, "D") || (deleting && force)) return "git branch -D deletes a branch even when its commits are not merged anywhere";
      if (force) return "git branch -f moves a branch, dropping the commits only it had";
      const moving = hasShort(args, "M") || hasShort(args, "C");
      const target = args.filter((arg) => !arg.startsWith("-")).at(-1);
      return moving && target !== undefined && branchMayExist(at, target) ? `git branch -M/-C overwrites the existing branch ${target}` : undefined;
    }
    case "checkout": {
      if (checkoutOfPaths(args, at)) return "git checkout of paths overwrites their uncommitted changes, which git cannot bring back";
      const reset = optionValue(args, "-B");
      return reset !== undefined && branchMayExist(at, reset) ? `git checkout -B resets the existing branch ${reset}, dropping the commits only it had` : undefined;
    }
    case "switch": {
      if (force || hasLong(args, "--discard-changes")) return "git switch -f (--discard-changes) throws away uncommitted changes";
      const reset = optionValue(args, "-C") ?? optionValue(args, "--force-create");
      return reset !== undefined && branchMayExist(at, reset) ? `git switch -C resets the existing branch ${reset}, dropping the commits only it had` : undefined;
    }
    case "restore": {
      const staged = hasLong(args, "--staged") || hasShort(args, "S");
      const worktree = hasLong(args, "--worktree") || hasShort(args, "W");
      return !staged || worktree ? "git restore overwrites uncommitted changes in the work tree, which git cannot bring back" : undefined;
    }
    case "rm":
    case "mv":
      // `git rm --cached -f` only unstages: the file stays in the work tree.
      return force && !(sub === "rm" && hasLong(args, "--cached")) ? `git ${sub} -f overwrites or deletes files with uncommitted changes` : undefined;
    case "stash": {
      const action = args.find((arg) => !arg.startsWith("-"));
      return action === "drop" || action === "clear" ? `git stash ${action} deletes stashed changes` : undefined;
    }
    case "worktree":
      return args[0] === "remove" && force ? "git worktree remove --force deletes a work tree with its uncommitted changes" : undefined;
    case "read-tree":
      return hasShort(args, "u") || hasLong(args, "--reset") ? "git read-tree -u (or --reset) overwrites the work tree or the index" : undefined;
    case "checkout-index":
      return force ? "git checkout-index -f overwrites files with uncommitted changes" : undefined;
    case "update-ref":
      return "git update-ref moves or deletes a branch directly, dropping the commits only it had";
    case "gc":
      return hasLong(args, "--prune") ? "git gc --prune deletes unreachable commits now instead of after the grace period" : undefined;
    case "prune":
      return hasLong(args, "--dry-run") || hasShort(args, "n") ? undefined : "git prune deletes unreachable commits, which may be lost work";
    case "reflog":
      return args[0] === "expire" || args[0] === "delete" ? `git reflog ${args[0]} deletes the record that lets lost commits be found again` : undefined;
    case "submodule":
      return (args[0] === "update" || args[0] === "deinit") && force ? `git submodule ${args[0]} --force throws away uncommitted changes in submodules` : undefined;
    default:
      return undefined;
  }
}

/** The key of a `key=value` setting (or of `--config-env key=VAR`). */
function settingKey(setting: string): string {
  return setting.split("=")[0]!.trim();
}

/** `git config` writing a key that names a program or makes a later command force. Reading passes. */
function configRefusal(args: readonly string[]): string | undefined {
  const reading = args.some((arg) => /^--(?:get|get-all|get-regexp|get-urlmatch|list|show-origin|show-scope|name-only|null)$|^-[lz]$/.test(arg) || /^(?:get|list)$/.test(arg));
  if (reading) return undefined;
  const operands = args.filter((arg) => !arg.startsWith("-"));
  const keyAt = /^(?:set|unset|unset-all|replace-all|add)$/.test(operands[0] ?? "") ? 1 : 0;
  const key = operands[keyAt];
  if (key === undefined || (operands.length <= keyAt + 1 && !args.some((arg) => /^--(?:add|replace-all|unset|unset-all)$/.test(arg)))) return undefined;
  if (PROGRAM_KEY.test(key)) return `git config ${key} names a program git would run later`;
  if (forcing(key, operands[keyAt + 1])) return `git config ${key} makes a later git command overwrite or delete work`;
  return undefined;
}

function pushRefusal(args: readonly string[]): string | undefined {
  if (hasLong(args, "--force", "--force-with-lease", "--force-if-includes") || hasShort(args, "f")) return "a forced git push overwrites history on the remote";
  if (hasLong(args, "--mirror")) return "git push --mirror overwrites and deletes refs on the remote to match this repository";
  if (hasLong(args, "--delete") || hasShort(args, "d")) return "git push --delete deletes branches or tags on the remote";
  if (hasLong(args, "--prune")) return "git push --prune deletes remote branches that have no local counterpart";
  const plus = args.find((arg) => arg.startsWith("+") && arg.length > 1);
  if (plus) return `the refspec ${plus} force-pushes, overwriting history on the remote`;
  const deleting = args.find((arg) => arg.startsWith(":") && arg.length > 1);
  return deleting ? `the refspec ${deleting} deletes ${deleting.slice(1)} on the remote` : undefined;
}

/** A fetch (or pull) that force-updates a local branch: `+src:dst` or `-f` with a destination outside refs/remotes/. */
function fetchRefusal(args: readonly string[], force: boolean): string | undefined {
  const refspec = args.find((arg) => !arg.startsWith("-") && arg.includes(":") && !/^[a-z+.-]+:\/\//i.test(arg) && (force || arg.startsWith("+")) && !/:(?:refs\/remotes\/|refs\/tags\/|$)/.test(arg));
  return refspec ? `the refspec ${refspec} force-updates a local branch, dropping the commits only it had` : undefined;
}

/** The value of a short option that takes one, `-B name` or `-Bname`. */
function optionValue(args: readonly string[], option: string): string | undefined {
  const at = args.findIndex((arg) => arg === option || arg.startsWith(`${option}=`) || (option.length === 2 && arg.startsWith(option) && arg.length > 2));
  if (at === -1) return undefined;
  const arg = args[at]!;
  if (arg === option) return args[at + 1] ?? "";
  return arg.startsWith(`${option}=`) ? arg.slice(option.length + 1) : arg.slice(2);
}

/**
 * Whether a branch of that name may exist in the repository at `cwd`: true when its ref file or a
 * packed-refs line names it, or when the repository cannot be found (then nothing can be told).
 */
function branchMayExist(cwd: string | undefined, name: string): boolean {
  if (cwd === undefined || name === "") return true;
  let dir = cwd;
  for (;;) {
    const gitDir = posix.join(dir, ".git");
    if (existsSync(gitDir)) {
      if (!statSafe(gitDir)) return true; // a `.git` file (worktree, submodule): not followed
      if (existsSync(posix.join(gitDir, "refs", "heads", name))) return true;
      try {
        return readFileSync(posix.join(gitDir, "packed-refs"), "utf8").split("\n").some((line) => line.endsWith(` refs/heads/${name}`));
      } catch {
        return false;
      }
    }
    const parent = posix.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `git checkout` that overwrites files rather than switching branches. */
function checkoutOfPaths(args: readonly string[], cwd: string | undefined): boolean {
  if (hasLong(args, "--force") || hasShort(args, "f")) return true;
  const dashes = args.indexOf("--");
  if (dashes !== -1) return args.length > dashes + 1;
  const operands = args.filter((arg) => !arg.startsWith("-"));
  // `git checkout <branch>` switches; a second operand, `.`, a glob or an existing path is a path.
  if (operands.length > 1 && !hasShort(args, "b") && !hasShort(args, "B") && !hasLong(args, "--orphan")) return true;
  return operands.some((operand) => operand === "." || /[*?[]/.test(operand) || (cwd !== undefined && existsSync(posix.resolve(cwd, operand)) && !isBranchLike(operand)));
}

/** Names that are refs even when a file of that name exists: `HEAD`, `main~2`, `origin/main`. */
function isBranchLike(operand: string): boolean {
  return /^(?:HEAD|@|-)$|[~^]/.test(operand);
}
