import { posix } from "node:path";
import type { ShellWord } from "./shell-parse.ts";
import { expandBraces, resolvePathWord, type Where } from "./path-word.ts";

/**
 * Why `rm …` would destroy work, or undefined when it may go on to approval. Only recursive or
 * forced removals are judged (`-r`, `-R`, `-f`, `--recursive`, `--force`, in any cluster or
 * position, since GNU rm accepts options after operands); a plain `rm file` is left to the
 * permission rules. Refused targets: anything outside the workspace, the workspace root itself,
 * its `.git`, the home directory, and paths only known at run time (variables, unknown cwd).
 */
export function rmRefusal(args: readonly ShellWord[], where: Where): string | undefined {
  let recursiveOrForce = false;
  const targets: ShellWord[] = [];
  let optionsEnded = false;
  for (const arg of args) {
    if (!optionsEnded && arg.text === "--") {
      optionsEnded = true;
    } else if (!optionsEnded && arg.text.startsWith("--")) {
      if (arg.text === "--recursive" || arg.text === "--force") recursiveOrForce = true;
    } else if (!optionsEnded && arg.text.startsWith("-") && arg.text.length > 1) {
      if (/[rRf]/.test(arg.text.slice(1))) recursiveOrForce = true;
    } else {
      targets.push(arg);
    }
  }
  if (!recursiveOrForce) return undefined;
  for (const target of targets) {
    for (const text of expandBraces(target.text)) {
      const why = targetRefusal(text, target, where);
      if (why) return why;
    }
  }
  return undefined;
}

function targetRefusal(text: string, word: ShellWord, where: Where): string | undefined {
  const target = resolvePathWord(text, word, where);
  switch (target.kind) {
    case "home":
      return `it deletes ${text}, the home directory, which is outside the workspace`;
    case "unknown":
      return `it deletes a path that cannot be checked before it runs (${target.why})`;
    case "path": {
      const { root } = where;
      const rel = posix.relative(root, target.abs);
      const outside = rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel);
      if (outside) return `it deletes ${text === target.abs ? text : `${text} (${target.abs})`}, which is outside the workspace ${root}`;
      if (target.within) return undefined;
      if (rel === "") return word.glob ? `it deletes everything in the workspace root ${root}` : `it deletes the workspace root ${root} itself`;
      if (rel === ".git") return `it deletes the repository's history (${posix.join(root, ".git")})`;
      return undefined;
    }
    default:
      return target satisfies never;
  }
}
