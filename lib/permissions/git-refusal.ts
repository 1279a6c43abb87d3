import type { ShellWord } from "./shell-parse.ts";

/** git's global options that take a separate argument (`git -C dir push`). */
const GLOBAL_ARG_OPTIONS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

/** True when a short-option cluster such as `-fdx` contains `letter`. */
function hasShort(args: readonly string[], letter: string): boolean {
  return args.some((arg) => /^-[A-Za-z]+$/.test(arg) && arg.slice(1).includes(letter));
}

/**
 * Why a git command would destroy work, or undefined. Refused: `reset --hard` (loses uncommitted
 * changes), `clean -f` in any spelling unless it is a dry run (deletes untracked files), `push`
 * with `--force`, `-f`, `--force-with-lease` or a `+ref` refspec (rewrites the remote's history),
 * and `branch -D` or `--delete --force` (deletes unmerged commits).
 */
export function gitRefusal(words: readonly ShellWord[]): string | undefined {
  let i = 0;
  while (i < words.length && words[i]!.text.startsWith("-")) i += GLOBAL_ARG_OPTIONS.has(words[i]!.text) ? 2 : 1;
  const sub = words[i]?.text;
  const args = words.slice(i + 1).map((word) => word.text);
  switch (sub) {
    case "reset":
      return args.includes("--hard") ? "git reset --hard throws away uncommitted changes" : undefined;
    case "clean": {
      const force = args.includes("--force") || hasShort(args, "f");
      const dryRun = args.includes("--dry-run") || hasShort(args, "n");
      return force && !dryRun ? "git clean -f deletes untracked files, which git cannot bring back" : undefined;
    }
    case "push": {
      const force = args.some((arg) => arg === "--force" || arg.startsWith("--force-with-lease") || arg === "--force-if-includes");
      if (force || hasShort(args, "f")) return "a forced git push overwrites history on the remote";
      const plus = args.find((arg) => arg.startsWith("+") && arg.length > 1);
      return plus ? `the refspec ${plus} force-pushes, overwriting history on the remote` : undefined;
    }
    case "branch": {
      const deleting = args.includes("--delete") || hasShort(args, "d");
      const forced = args.includes("--force") || hasShort(args, "f");
      return hasShort(args, "D") || (deleting && forced) ? "git branch -D deletes a branch even when its commits are not merged anywhere" : undefined;
    }
    default:
      return undefined;
  }
}
