import { parseGit } from "./git-refusal.ts";
import { SHELLS, shellScript, unwrapCommand } from "./invocation.ts";
import { parseShell, type ShellCommand, type ShellWord } from "./shell-parse.ts";

/** One simple command of a bash line, for permission rules and "always" grants. */
export type CommandPart = {
  /** As written, redirections included, heredoc bodies left out: `npm test 2>&1`. */
  source: string;
  /** The first word after variable assignments, quotes removed: `git`, `./run.sh`, `sudo`. */
  program: string | undefined;
  /** The words from the program on, quotes removed: `git`, `commit`, `-m`, `a b`. */
  words?: string[];
  /** Writes a file through `>`/`>>` (other than /dev/null or another descriptor). */
  writesFile: boolean;
  /** Reads a heredoc, whose body `source` leaves out. */
  heredoc?: boolean;
  /**
   * The command as it runs, wrappers and assignments peeled and quotes removed, the program by
   * its basename: `env X=1 /usr/bin/c''url -s x` → `curl -s x`. Undefined when nothing runs.
   */
  unwrapped?: string;
  /** The program word is an expansion (`$(echo rm)`, `$X`): what runs is only known then. */
  programExpands?: boolean;
  /** The git settings given with `-c`/`--config-env`, and the git subcommand, when the program is git. */
  git?: { sub: string | undefined; settings: string[] };
};

const MAX_NESTING = 6;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const DIRECTORY_ONLY = new Set(["cd", "pushd", "popd"]);

/**
 * Every simple command a bash line runs, including those inside `$(…)`, backticks, `bash -c "…"`,
 * `eval` and heredocs fed to a shell. `cd`, `pushd` and `popd` are left out: they change nothing
 * by themselves. Text nested too deeply to read comes back whole, with no program, so that no
 * grant covers it. Pure.
 */
export function commandParts(command: string, depth = 0): CommandPart[] {
  if (depth > MAX_NESTING) return [{ source: command.trim(), program: undefined, writesFile: true }];
  const parsed = parseShell(command);
  const parts: CommandPart[] = [];
  for (const simple of parsed.commands) {
    const first = simple.words.findIndex((word) => !ASSIGNMENT.test(word.text));
    const program = first < 0 ? undefined : simple.words[first]!.text;
    if (program !== undefined && DIRECTORY_ONLY.has(program)) continue;
    const inv = unwrapCommand(simple.words);
    const part: CommandPart = { source: simple.source, program, writesFile: writesFile(simple) };
    if (first >= 0) part.words = simple.words.slice(first).map((word) => word.text);
    if (simple.heredocs.length > 0) part.heredoc = true;
    if (inv) {
      // `xargs curl`: arguments come from the input, written `…` so that `curl *` matches.
      part.unwrapped = [inv.name, ...inv.args.map((arg) => arg.text), ...(inv.moreArgs ? ["…"] : [])].join(" ");
      if (inv.program.expands || inv.program.glob) part.programExpands = true;
      if (inv.name === "git") {
        const git = parseGit(inv.args);
        part.git = { sub: git.sub, settings: git.settings };
      }
    }
    parts.push(part);
    for (const script of scriptsRunBy(simple)) parts.push(...commandParts(script, depth + 1));
  }
  for (const inner of parsed.substitutions) parts.push(...commandParts(inner, depth + 1));
  return parts;
}

/**
 * Every word a bash line hands to a program, quotes removed, with redirection targets and heredoc
 * bodies, through the same nesting as commandParts (`cd` included). Text nested too deeply to read
 * comes back whole. Pure.
 */
export function commandWords(command: string, depth = 0): string[] {
  return shellWords(command, depth).map((word) => word.text);
}

/** commandWords, as the words they are: whether each has an unquoted glob or an expansion. */
export function shellWords(command: string, depth = 0): ShellWord[] {
  const text = (t: string): ShellWord => ({ text: t, expands: false, glob: false });
  if (depth > MAX_NESTING) return [text(command)];
  const parsed = parseShell(command);
  const words: ShellWord[] = [];
  for (const simple of parsed.commands) {
    words.push(...simple.words);
    for (const redirect of simple.redirects) if (redirect.target) words.push(redirect.target);
    words.push(...simple.heredocs.map(text));
    for (const script of scriptsRunBy(simple)) words.push(...shellWords(script, depth + 1));
  }
  for (const inner of parsed.substitutions) words.push(...shellWords(inner, depth + 1));
  return words;
}

function writesFile(command: ShellCommand): boolean {
  return command.redirects.some((redirect) => {
    if (!redirect.op.includes(">")) return false;
    const target = redirect.target?.text ?? "";
    return !(target === "/dev/null" || (redirect.op.endsWith("&") && /^(\d+|-)$/.test(target)));
  });
}

function scriptsRunBy(command: ShellCommand): string[] {
  const inv = unwrapCommand(command.words);
  if (!inv) return [];
  if (inv.scripts.length > 0) return inv.scripts;
  if (inv.name === "eval") return [inv.args.map((arg) => arg.text).join(" ")];
  if (!SHELLS.has(inv.name)) return [];
  const script = shellScript(inv.args);
  return script !== undefined ? [script] : [...command.heredocs];
}
