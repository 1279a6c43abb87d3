import { existsSync } from "node:fs";
import { posix } from "node:path";
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
 * Why a git command would destroy work or run a program hidden in its settings, or undefined.
 * Long options count by any prefix git accepts (`--har`, `--forc`, `--force-w`, `--del`).
 * Refused: `reset --hard`; `clean -f` unless a dry run; `push` that forces (`-f`, `--force*`,
 * `+ref`), mirrors, deletes (`-d`, `--delete`, `:ref`) or prunes remote branches; `branch -D` or
 * `--delete --force`; `checkout` of paths (`-- paths`, `.`, an existing path, `-f`); `restore` of
 * the work tree; `stash drop` and `stash clear`; and `-c`/`--config-env` that set an alias or a
 * program (`-c alias.p='push --force'`, `-c core.pager=…`). `cwd` is where the command runs, for
 * telling a path from a branch name; undefined when unknown.
 */
export function gitRefusal(words: readonly ShellWord[], cwd: string | undefined): string | undefined {
  const { sub, args, settings, dir } = parseGit(words);
  const programSetting = settings.find((setting) => PROGRAM_KEY.test(setting.split("=")[0]!.trim()));
  if (programSetting) {
    return `it sets ${programSetting.split("=")[0]} on the command line, which makes git run a command of its choosing`;
  }
  const at = cwd === undefined ? undefined : dir === undefined ? cwd : posix.resolve(cwd, dir);
  switch (sub) {
    case "reset":
      return hasLong(args, "--hard") ? "git reset --hard throws away uncommitted changes" : undefined;
    case "clean": {
      const force = hasLong(args, "--force") || hasShort(args, "f");
      const dryRun = hasLong(args, "--dry-run") || hasShort(args, "n");
      return force && !dryRun ? "git clean -f deletes untracked files, which git cannot bring back" : undefined;
    }
    case "push": {
      if (hasLong(args, "--force", "--force-with-lease", "--force-if-includes") || hasShort(args, "f")) return "a forced git push overwrites history on the remote";
      if (hasLong(args, "--mirror")) return "git push --mirror overwrites and deletes refs on the remote to match this repository";
      if (hasLong(args, "--delete") || hasShort(args, "d")) return "git push --delete deletes branches or tags on the remote";
      if (hasLong(args, "--prune")) return "git push --prune deletes remote branches that have no local counterpart";
      const plus = args.find((arg) => arg.startsWith("+") && arg.length > 1);
      if (plus) return `the refspec ${plus} force-pushes, overwriting history on the remote`;
      const deleting = args.find((arg) => arg.startsWith(":") && arg.length > 1);
      return deleting ? `the refspec ${deleting} deletes ${deleting.slice(1)} on the remote` : undefined;
    }
    case "branch": {
      const deleting = hasLong(args, "--delete") || hasShort(args, "d");
      const forced = hasLong(args, "--force") || hasShort(args, "f");
      return hasShort(args, "D") || (deleting && forced) ? "git branch -D deletes a branch even when its commits are not merged anywhere" : undefined;
    }
    case "checkout":
      return checkoutOfPaths(args, at) ? "git checkout of paths overwrites their uncommitted changes, which git cannot bring back" : undefined;
    case "restore": {
      const staged = hasLong(args, "--staged") || hasShort(args, "S");
      const worktree = hasLong(args, "--worktree") || hasShort(args, "W");
      return !staged || worktree ? "git restore overwrites uncommitted changes in the work tree, which git cannot bring back" : undefined;
    }
    case "stash": {
      const action = args.find((arg) => !arg.startsWith("-"));
      return action === "drop" || action === "clear" ? `git stash ${action} deletes stashed changes` : undefined;
    }
    default:
      return undefined;
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
