import { findCommands } from "./nested.ts";
import { programName } from "./invocation.ts";
import type { Where } from "./path-word.ts";
import { rmRefusal } from "./rm-refusal.ts";
import type { ShellWord } from "./shell-parse.ts";

/** Programs that delete what they are given: `find … -exec rm {} +` deletes what find matches. */
const DELETERS = new Set(["rm", "rmdir", "unlink", "shred"]);

/**
 * Why `find … -delete` (or `-exec`/`-execdir`/`-ok` of rm, rmdir, unlink or shred) would destroy
 * work, or undefined. What find matches is only known when it runs, and its tests (`-name`,
 * `-path`, …) cannot be trusted to keep it out of `.git`, so each starting point is judged as
 * `rm -rf` would judge it: the workspace root, its `.git` (or anything in it), a path outside the
 * workspace or one only known at run time is refused. `find src -name '*.o' -delete` passes.
 */
export function findRefusal(args: readonly ShellWord[], where: Where): string | undefined {
  const deletes = args.some((arg) => arg.text === "-delete") || findCommands(args).some((words) => DELETERS.has(programName(words[0] ?? "")));
  if (!deletes) return undefined;
  const starts = startingPoints(args);
  for (const start of starts.length > 0 ? starts : [{ text: ".", expands: false, glob: false }]) {
    const why = rmRefusal([{ text: "-rf", expands: false, glob: false }, start], where);
    if (why) return `it deletes what find matches under ${start.text}, judged like rm -rf ${start.text}: ${why.replace(/^it /, "")}`;
  }
  return undefined;
}

/** find's starting points: the operands after its own options (-H, -L, -P, -D x, -Ox) and before the expression. */
function startingPoints(args: readonly ShellWord[]): ShellWord[] {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]+|D|O\d*)$/.test(args[i]!.text)) i += args[i]!.text === "-D" ? 2 : 1;
  const starts: ShellWord[] = [];
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--") continue;
    if ((text.startsWith("-") && text.length > 1) || text === "(" || text === "!" || text === ",") break;
    starts.push(args[i]!);
  }
  return starts;
}
