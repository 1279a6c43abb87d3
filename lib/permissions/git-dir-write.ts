import type { Invocation } from "./invocation.ts";
import type { ShellCommand } from "./shell-parse.ts";

/** Programs that write to a destination named among their operands (the last one, or after `-t`). */
const COPIERS = new Set(["cp", "mv", "ln", "install", "rsync"]);

/**
 * A path into git's own files (a `.git` segment, or `.git` itself): refs, HEAD, config, hooks,
 * `commondir`, attributes. Written by hand they move branches past every check on git, or make a
 * later git run a program or force a push. `.git/info/exclude` (ignore patterns) is fine.
 */
function intoGitDir(path: string): boolean {
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  const at = segments.findIndex((segment) => segment.toLowerCase() === ".git");
  if (at === -1) return false;
  const inside = segments.slice(at + 1).join("/");
  return inside !== "info/exclude";
}

/**
 * Why a command writes into git's own files by hand, or undefined: a redirection (`> .git/config`,
 * `>> .git/hooks/pre-commit`), `tee`, or `cp`/`mv`/`ln`/`install`/`rsync` onto such a path.
 * Programs that write files by themselves (an editor, a script) are not seen; in the sandbox the
 * repository's git files are protected there too.
 */
export function gitDirWrite(command: ShellCommand, inv: Invocation | undefined): string | undefined {
  const redirect = command.redirects.find((r) => r.op.includes(">") && !r.op.endsWith("&") && r.target && intoGitDir(r.target.text));
  if (redirect) return `it writes into git's own files (${redirect.target!.text}), which can move branches or make a later git command run a program or force a push`;
  if (!inv) return undefined;
  const operands = inv.args.filter((arg) => !arg.text.startsWith("-")).map((arg) => arg.text);
  let target: string | undefined;
  if (inv.name === "tee") target = operands.find(intoGitDir);
  else if (COPIERS.has(inv.name)) {
    const t = inv.args.findIndex((arg) => arg.text === "-t" || arg.text.startsWith("--target-directory"));
    target = t !== -1 ? (inv.args[t]!.text.includes("=") ? inv.args[t]!.text.split("=")[1] : inv.args[t + 1]?.text) : operands.at(-1);
    if (target !== undefined && !intoGitDir(target)) target = undefined;
  }
  return target ? `it writes into git's own files (${target}), which can move branches or make a later git command run a program or force a push` : undefined;
}
