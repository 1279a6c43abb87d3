import { posix } from "node:path";
import { existsSync } from "node:fs";
import { expandGlob, physicalPath } from "./fs-paths.ts";
import { parseShell, type ShellCommand, type ShellWord } from "./shell-parse.ts";

/**
 * Commands that only look: an interactive session runs them without a question (the sandbox and
 * the secrets rule still apply, and a deny rule still wins). Each entry is a program, or a program
 * and its sub-command (`git log`), and says which of its options would write or run something.
 * docs/permissions.md lists them verbatim; keep the two in step.
 */
type ArgCheck = (args: readonly string[]) => boolean;

/**
 * A short-option cluster that sets one of `letters`, read the way getopt reads it: `-uo`, `-o./x`
 * and `-o/tmp/x` set `o`. Scanning stops at an option in `takesValue`, since the rest of the
 * cluster is its value (`sort -k1o` sets `k` to `1o`).
 */
const shortHas = (arg: string, letters: string, takesValue = "") => {
  if (!arg.startsWith("-") || arg.startsWith("--") || arg.length < 2) return false;
  for (const c of arg.slice(1)) {
    if (letters.includes(c)) return true;
    if (takesValue.includes(c)) return false;
  }
  return false;
};
/** `--name` or `--name=…`, or any prefix of it (`--o=x` for `--output`): GNU and git accept a unique prefix. */
const longIs = (arg: string, long: string) => {
  const name = arg.split("=")[0]!;
  return name.startsWith("--") && name.length > 2 && long.startsWith(name);
};
const none = (...bad: ((arg: string) => boolean)[]): ArgCheck => (args) => !args.some((arg) => bad.some((is) => is(arg)));
const any: ArgCheck = () => true;
/** The operands: words that are not options, and every word after `--`. */
const operands = (args: readonly string[]) => {
  const end = args.indexOf("--");
  const before = end < 0 ? args : args.slice(0, end);
  return [...before.filter((arg) => !arg.startsWith("-") || arg === "-"), ...(end < 0 ? [] : args.slice(end + 1))];
};

/** find's actions that delete, write files or run programs. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
/** git log/show/diff: `--output` writes a file, `--ext-diff` runs a configured program. */
const gitLook = none((a) => longIs(a, "--output"), (a) => longIs(a, "--ext-diff"), (a) => a.startsWith("--output-"));
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
  sleep: any,
  seq: any,
  grep: any,
  // rg takes long options by their full names only.
  rg: none((a) => ["--pre", "--pre-glob", "--hostname-bin"].includes(a.split("=")[0]!)),
  find: none((a) => FIND_ACTIONS.has(a)),
  pwd: any,
  echo: any,
  which: any,
  file: none((a) => longIs(a, "--compile") || shortHas(a, "C", "efFmP")),
  stat: any,
  du: any,
  df: any,
  tree: none((a) => shortHas(a, "oR", "LPIH") || longIs(a, "--fromfile")),
  sort: none((a) => shortHas(a, "oT", "kSt") || longIs(a, "--output") || longIs(a, "--compress-program") || longIs(a, "--temporary-directory")),
  uniq: (args) => operands(args).length <= 1, // a second operand is the file uniq writes (`--` included)
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

/** Config `readOnlyCommands`: entries added to the list (any arguments allowed, built-in ones keep their checks) and built-in ones taken out. */
export type ReadOnlyConfig = { add?: readonly string[]; remove?: readonly string[] };

/**
 * The list in effect: the built-in one, less `remove`, plus `add`. An added entry takes any
 * arguments, except one already built in (`find`), which keeps its own check.
 */
export function readOnlyList(config: ReadOnlyConfig | undefined): ReadonlyMap<string, ArgCheck> {
  const key = config ?? NO_CONFIG;
  let list = lists.get(key);
  if (!list) lists.set(key, (list = buildList(config)));
  return list;
}

// Built once per config object: the check runs on every command, the config changes rarely.
const NO_CONFIG: ReadOnlyConfig = {};
const lists = new WeakMap<ReadOnlyConfig, ReadonlyMap<string, ArgCheck>>();

function buildList(config: ReadOnlyConfig | undefined): Map<string, ArgCheck> {
  const list = new Map(Object.entries(READ_ONLY_COMMANDS));
  for (const entry of config?.add ?? []) if (!list.has(normalize(entry))) list.set(normalize(entry), any);
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
 * read as an option). Only `*` and `?` globs in a known directory are expanded and checked; a
 * bracket expression or extglob, or any glob after a `cd`, is refused. `cd` may join the others,
 * but git after a `cd` is refused (it would read that directory's repository config). With
 * `confine` (the workspace root, when commands do not run in the sandbox) every word that could
 * be a path (absolute, with `..`, or existing) must really be inside it. Judged on the parsed
 * line, never the text; `cwd` is where the line starts. Reads the file system, changes nothing.
 */
export function isReadOnlyCommand(command: string, list: ReadonlyMap<string, ArgCheck>, cwd: string, confine?: string): boolean {
  const parsed = parseShell(command);
  if (parsed.substitutions.length > 0 || parsed.commands.length === 0) return false;
  let here: string | undefined = cwd;
  let changedDir = false;
  // Where the line may be by now: a `cd` that fails leaves it where it was.
  let dirs = [cwd];
  const root = confine === undefined ? undefined : physicalPath(confine, true);
  const inside = (abs: string) => root === undefined || isWithin(physicalPath(abs, true), root);
  for (const simple of parsed.commands) {
    if (simple.end === "&" || simple.heredocs.length > 0 || !redirectsHarmless(simple)) return false;
    const words = simple.words;
    if (words.length === 0 || words.some(changesWhenRun)) return false;
    const program = words[0]!.text;
    if (program === "cd") {
      here = undefined; // globs after a cd are not looked up
      changedDir = true;
      if (root !== undefined) {
        const target = words[1]?.text;
        if (target === undefined || target.startsWith("-") || words.length > 2 || words[1]!.glob) return false;
        const next = dirs.map((dir) => posix.resolve(dir, target));
        if (!next.every(inside)) return false;
        dirs = [...new Set([...dirs, ...next])];
      }
      continue;
    }
    if (program.includes("/") || program.includes("=")) return false;
    if (program === "git" && changedDir) return false;
    const args = words.slice(1).map((word) => word.text);
    const sub = program === "git" ? gitSub(args) : undefined;
    if (program === "git" && !sub) return false;
    const check = sub ? list.get(`git ${sub.name}`) : (list.get(program) ?? (args[0] !== undefined ? list.get(`${program} ${args[0]}`) : undefined));
    if (!check) return false;
    const checkedArgs = sub ? sub.args : list.has(program) ? args : args.slice(1);
    if (!check(checkedArgs)) return false;
    if (root !== undefined && !sub && FOLLOWS_LINKS[program]?.(args)) return false;
    for (const word of words.slice(1)) {
      if (word.glob) {
        const matches = globMatches(word.text, here);
        if (!matches || !matches.every(inside)) return false;
      } else if (root !== undefined && !operandInside(word.text, dirs, inside)) return false;
    }
  }
  return true;
}

/**
 * Options that read file contents through symlinks met on the way down a tree, which the operand
 * check cannot see: refused when commands do not run in the sandbox.
 */
const FOLLOWS_LINKS: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  grep: (args) => args.some((a) => shortHas(a, "R") || longIs(a, "--dereference-recursive")),
  rg: (args) => args.some((a) => shortHas(a, "L") || a === "--follow"),
  diff: (args) => args.some((a) => shortHas(a, "r") || longIs(a, "--recursive")),
};

const isWithin = (path: string, root: string) => path === root || path.startsWith(root === "/" ? "/" : `${root}/`);

/**
 * True when a word, if it names a path, names one inside (per `inside`) from every directory the
 * line may be in. A word could be a path when it is absolute, has `..`, or exists; an option's
 * value after `=` is judged the same way, and an option with a `/` but no `=` (`-f/etc/x`) is
 * refused.
 */
function operandInside(word: string, dirs: readonly string[], inside: (abs: string) => boolean): boolean {
  let value = word;
  if (word.startsWith("-")) {
    if (word.includes("=")) value = word.slice(word.indexOf("=") + 1);
    else return !word.includes("/");
  }
  if (value === "" || value === "-") return true;
  return dirs.every((dir) => {
    const abs = posix.resolve(dir, value);
    const couldBePath = value.startsWith("/") || value.split("/").includes("..") || existsSync(abs);
    return !couldBePath || inside(abs);
  });
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

/**
 * What a glob word matches, when all of them read as file names (none starts with `-`); undefined
 * when that cannot be known: the directory is unknown (after a `cd`), or the glob has a bracket
 * expression or extglob syntax, whose bash meaning (`[[:punct:]]`, `!(x)`) the expansion here
 * does not follow, or matches too many files.
 */
function globMatches(glob: string, cwd: string | undefined): string[] | undefined {
  if (cwd === undefined || /[[\]]|[?*+@!]\(/.test(glob)) return undefined;
  const matches = expandGlob(posix.resolve(cwd, glob));
  if (matches === undefined || matches.some((match) => posix.basename(match).startsWith("-"))) return undefined;
  return matches;
}
