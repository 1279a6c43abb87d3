import { posix } from "node:path";
import { expandGlob } from "./fs-paths.ts";
import { parseShell, type ShellCommand, type ShellWord } from "./shell-parse.ts";

/**
 * Commands that only look: an interactive session runs them without a question (the sandbox and
 * the secrets rule still apply, and a deny rule still wins). Each entry is a program, or a program
 * and its sub-command (`git log`), and says which of its options would write or run something.
 * docs/permissions.md lists them verbatim; keep the two in step.
 */
type ArgCheck = (args: readonly string[]) => boolean;

/** A short-option cluster (`-la`, `-uo`) that contains one of `letters`. */
const shortHas = (arg: string, letters: string) => /^-[A-Za-z0-9]+$/.test(arg) && [...arg.slice(1)].some((c) => letters.includes(c));
/** `--name` or `--name=…`, or a prefix of it that a GNU or git parser accepts as an abbreviation (`--outp`). */
const longIs = (arg: string, long: string, minLength = 4) => {
  const name = arg.split("=")[0]!;
  return name.startsWith("--") && name.length >= minLength && long.startsWith(name);
};
const none = (...bad: ((arg: string) => boolean)[]): ArgCheck => (args) => !args.some((arg) => bad.some((is) => is(arg)));
const any: ArgCheck = () => true;
const operands = (args: readonly string[]) => args.filter((arg) => !arg.startsWith("-") || arg === "-");

/** find's actions that delete, write files or run programs. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
/** git log/show/diff: `--output` writes a file, `--ext-diff` runs a configured program. */
const gitLook = none((a) => longIs(a, "--output", 4), (a) => longIs(a, "--ext-diff", 4), (a) => a.startsWith("--output-"));
/** Options of `git branch` that only list; anything else (a name to create, -d, -m, -c, -u) asks. */
const BRANCH_LIST_FLAGS = new Set(["-a", "-r", "-v", "-vv", "-l", "--all", "--remotes", "--list", "--verbose", "--show-current", "--no-color", "--color", "--no-column", "--column", "-i", "--ignore-case", "--omit-empty"]);
const BRANCH_VALUE_FLAGS = new Set(["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"]);

function branchLists(args: readonly string[]): boolean {
  let listing = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--list" || arg === "-l") listing = true;
    if (BRANCH_LIST_FLAGS.has(arg) || arg.startsWith("--color=") || arg.startsWith("--column=")) continue;
    const name = arg.split("=")[0]!;
    if (BRANCH_VALUE_FLAGS.has(name)) {
      if (!arg.includes("=")) i++;
      continue;
    }
    if (!arg.startsWith("-") && listing) continue; // patterns after --list
    return false;
  }
  return true;
}

export const READ_ONLY_COMMANDS: Readonly<Record<string, ArgCheck>> = {
  ls: any,
  cat: any,
  head: any,
  tail: any,
  wc: any,
  nl: any,
  grep: any,
  rg: none((a) => longIs(a, "--pre", 5), (a) => longIs(a, "--pre-glob", 6), (a) => longIs(a, "--hostname-bin", 4)),
  find: none((a) => FIND_ACTIONS.has(a)),
  pwd: any,
  echo: any,
  which: any,
  file: none((a) => a === "-C" || longIs(a, "--compile", 4) || shortHas(a, "C")),
  stat: any,
  du: any,
  df: any,
  tree: none((a) => a === "-o" || a === "-R" || shortHas(a, "oR") || longIs(a, "--fromfile", 4)),
  sort: none((a) => shortHas(a, "oT") || longIs(a, "--output", 4) || longIs(a, "--compress-program", 4) || longIs(a, "--temporary-directory", 4)),
  uniq: (args) => operands(args).length <= 1, // a second operand is the file uniq writes
  cut: any,
  diff: any,
  basename: any,
  dirname: any,
  realpath: any,
  readlink: any,
  "git status": any,
  "git diff": gitLook,
  "git log": gitLook,
  "git show": gitLook,
  "git blame": any,
  "git branch": branchLists,
  "git rev-parse": any,
  "git ls-files": any,
};

/** Config `readOnlyCommands`: entries added to the list (any arguments allowed) and built-in ones taken out. */
export type ReadOnlyConfig = { add?: readonly string[]; remove?: readonly string[] };

/** The list in effect: the built-in one, less `remove`, plus `add` (whose entries take any arguments). */
export function readOnlyList(config: ReadOnlyConfig | undefined): Map<string, ArgCheck> {
  const list = new Map(Object.entries(READ_ONLY_COMMANDS));
  for (const entry of config?.add ?? []) list.set(normalize(entry), any);
  for (const entry of config?.remove ?? []) list.delete(normalize(entry));
  return list;
}

const normalize = (entry: string) => entry.trim().split(/\s+/).join(" ");

/** A word the shell would turn into something else when it runs: `$X`, `{a,b}`, `~`. */
const changesWhenRun = (word: ShellWord) => word.expands || word.brace === true || word.text.startsWith("~");

/**
 * True when every command the line runs is on the list, as it will run: no redirection other
 * than into /dev/null or onto another descriptor (`2>&1`), no command or process substitution,
 * no variable assignment or expansion, no wrapper (`sudo`, `env`, `xargs`), no background `&`,
 * every part of a pipeline or list on the list with none of its options that write or run
 * something, and no glob that matches a file whose name starts with `-` (which the program would
 * read as an option). `cd` may join the others. Judged on the parsed line, never the text; `cwd`
 * is where the line starts, for its globs. Reads the file system (globs), changes nothing.
 */
export function isReadOnlyCommand(command: string, list: ReadonlyMap<string, ArgCheck>, cwd: string): boolean {
  const parsed = parseShell(command);
  if (parsed.substitutions.length > 0 || parsed.commands.length === 0) return false;
  let here: string | undefined = cwd;
  for (const simple of parsed.commands) {
    if (simple.end === "&" || simple.heredocs.length > 0 || !redirectsHarmless(simple)) return false;
    const words = simple.words;
    if (words.length === 0 || words.some(changesWhenRun)) return false;
    const program = words[0]!.text;
    if (program === "cd") {
      here = undefined; // globs after a cd are not looked up
      continue;
    }
    if (program.includes("/") || program.includes("=")) return false;
    const args = words.slice(1).map((word) => word.text);
    const sub = program === "git" ? gitSub(args) : undefined;
    if (program === "git" && !sub) return false;
    const check = sub ? list.get(`git ${sub.name}`) : (list.get(program) ?? (args[0] !== undefined ? list.get(`${program} ${args[0]}`) : undefined));
    if (!check) return false;
    const checkedArgs = sub ? sub.args : list.has(program) ? args : args.slice(1);
    if (!check(checkedArgs)) return false;
    for (const word of words.slice(1)) if (word.glob && !globSafe(word.text, here)) return false;
  }
  return true;
}

/**
 * `git <sub> …` with no global options but `--no-pager`/`-P`: `-C`, `-c`, `--git-dir` and the like
 * point git at other settings, which can name programs for it to run.
 */
function gitSub(args: readonly string[]): { name: string; args: string[] } | undefined {
  let i = 0;
  while (args[i] === "--no-pager" || args[i] === "-P" || args[i] === "--no-optional-locks") i++;
  const name = args[i];
  if (name === undefined || name.startsWith("-")) return undefined;
  return { name, args: args.slice(i + 1) };
}

function redirectsHarmless(command: ShellCommand): boolean {
  return command.redirects.every((redirect) => {
    const target = redirect.target;
    if (!target || changesWhenRun(target) || target.glob) return false;
    if (redirect.op === ">&" && /^(\d+|-)$/.test(target.text)) return true;
    return (redirect.op === ">" || redirect.op === ">>" || redirect.op === "&>") && target.text === "/dev/null";
  });
}

/** A glob whose matches all read as file names: none starts with `-`. Unknown directory: only a glob that cannot start one. */
function globSafe(glob: string, cwd: string | undefined): boolean {
  if (cwd === undefined) return !/^[*?[]/.test(glob.split("/").pop() ?? glob) && !/^[*?[]/.test(glob);
  const matches = expandGlob(posix.resolve(cwd, glob));
  if (matches === undefined) return false;
  return matches.every((match) => !posix.basename(match).startsWith("-"));
}
