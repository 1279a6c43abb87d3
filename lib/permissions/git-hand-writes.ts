import type { Invocation } from "./invocation.ts";
import type { ShellCommand } from "./shell-parse.ts";

/** Programs that write to a destination named among their operands (the last one, or after `-t`). */
const COPIERS = new Set(["cp", "mv", "ln", "install", "rsync"]);

/**
 * A path into what records the repository's work: refs, `HEAD`, `packed-refs`, the reflogs and the
 * objects of a git folder (a `.git` segment). Written by hand they move or delete branches past
 * every check on git (`echo 0000 > .git/refs/heads/main`). Configuration and hooks are the
 * sandbox's to hold (see "The sandbox" in docs/permissions.md); a config written in the same line
 * as a push is caught as that (configWrite).
 */
function intoGitRecords(path: string): boolean {
  const inside = insideGitDir(path);
  return inside !== undefined && /^(?:refs(?:\/|$)|HEAD$|ORIG_HEAD$|packed-refs$|logs(?:\/|$)|objects(?:\/|$))/.test(inside);
}

/** The part of a path after its `.git` segment, or undefined when it has none. */
function insideGitDir(path: string): string | undefined {
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  const at = segments.findIndex((segment) => segment.toLowerCase() === ".git");
  return at === -1 ? undefined : segments.slice(at + 1).join("/");
}

/** A git config file: `config` or `config.worktree` in a git folder, or a `.gitconfig`. */
function gitConfigFile(path: string): boolean {
  const inside = insideGitDir(path);
  return (inside !== undefined && /^(?:config|config\.worktree)$/.test(inside)) || /(?:^|\/)\.gitconfig$/.test(path);
}

/** The paths a command writes by redirection, `tee`, or `cp`/`mv`/`ln`/`install`/`rsync` onto them. */
function writtenPaths(command: ShellCommand, inv: Invocation | undefined): string[] {
  const paths = command.redirects.filter((r) => r.op.includes(">") && !r.op.endsWith("&") && r.target).map((r) => r.target!.text);
  if (!inv) return paths;
  const operands = inv.args.filter((arg) => !arg.text.startsWith("-")).map((arg) => arg.text);
  if (inv.name === "tee") paths.push(...operands);
  else if (COPIERS.has(inv.name)) {
    const t = inv.args.findIndex((arg) => arg.text === "-t" || arg.text.startsWith("--target-directory"));
    const target = t !== -1 ? (inv.args[t]!.text.includes("=") ? inv.args[t]!.text.split("=")[1] : inv.args[t + 1]?.text) : operands.at(-1);
    if (target !== undefined) paths.push(target);
  }
  return paths;
}

/**
 * Why a command writes git's records of work by hand (refs, `HEAD`, `packed-refs`, reflogs,
 * objects), or undefined. Programs that write files by themselves (a script) are not seen.
 */
export function gitRecordsWrite(command: ShellCommand, inv: Invocation | undefined): string | undefined {
  const target = writtenPaths(command, inv).find(intoGitRecords);
  return target ? `it writes git's records by hand (${target}), which moves or deletes branches and the commits only they had` : undefined;
}

/** The git config file a command writes by hand (`>> .git/config`, `tee ~/.gitconfig`), if any. */
export function configWrite(command: ShellCommand, inv: Invocation | undefined): string | undefined {
  return writtenPaths(command, inv).find(gitConfigFile);
}
