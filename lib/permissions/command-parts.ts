import { parseGit } from "./git-refusal.ts";
import { programComputed, unwrapCommand } from "./invocation.ts";
import { nestedOf } from "./nested.ts";
import { runsAnotherProgram } from "./runs-another.ts";
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
  /** Runs code shiro cannot read reliably (`python3 -c`, `node -e`, awk `system(x)`): why, as a clause. */
  opaque?: string;
  /**
   * An option or variable of this command makes the program run another one (git `--upload-pack`,
   * find `-exec`, tar `--to-command`, `LD_PRELOAD=`, a wrapper such as `env` or `xargs`): which, as
   * written. A grant for the program never covers it (runs-another.ts).
   */
  runsAnother?: string;
};

const MAX_NESTING = 6;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const DIRECTORY_ONLY = new Set(["cd", "pushd", "popd"]);

/**
 * Every simple command a bash line runs, including those inside `$(…)`, backticks and what the
 * nested-script reader (nested.ts, shared with the guard) finds: `bash -c "…"`, `eval`, heredocs
 * and here-strings fed to a shell, `find -exec`, awk `system()`, wrapper scripts. `cd`, `pushd`
 * and `popd` are left out: they change nothing by themselves. Text nested too deeply to read
 * comes back whole, with no program, so that no grant covers it. Pure.
 */
export function commandParts(command: string, depth = 0): CommandPart[] {
  if (depth > MAX_NESTING) return [{ source: command.trim(), program: undefined, writesFile: true }];
  const parsed = parseShell(command);
  const parts: CommandPart[] = [];
  parsed.commands.forEach((simple, index) => {
    const piped = parsed.commands[index - 1]?.end === "|";
    const first = simple.words.findIndex((word) => !ASSIGNMENT.test(word.text));
    const program = first < 0 ? undefined : simple.words[first]!.text;
    if (program !== undefined && DIRECTORY_ONLY.has(program)) return;
    const inv = unwrapCommand(simple.words);
    const part: CommandPart = { source: simple.source, program, writesFile: writesFile(simple) };
    if (first >= 0) part.words = simple.words.slice(first).map((word) => word.text);
    if (simple.heredocs.length > 0) part.heredoc = true;
    if (inv) {
      // `xargs curl`: arguments come from the input, written `…` so that `curl *` matches.
      part.unwrapped = [inv.name, ...inv.args.map((arg) => arg.text), ...(inv.moreArgs ? ["…"] : [])].join(" ");
      if (programComputed(inv.program)) part.programExpands = true;
      if (inv.name === "git") {
        const git = parseGit(inv.args);
        part.git = { sub: git.sub, settings: git.settings };
      }
      const another = runsAnotherProgram(simple.words, inv);
      if (another) part.runsAnother = another;
    }
    const nested = inv ? nestedOf(inv, simple, piped) : { scripts: [] };
    if (nested.opaque) part.opaque = nested.opaque;
    parts.push(part);
    for (const script of nested.scripts) parts.push(...commandParts(script, depth + 1));
  });
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
    for (const script of scriptsRunBy(simple, false)) words.push(...shellWords(script, depth + 1));
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

function scriptsRunBy(command: ShellCommand, piped: boolean): string[] {
  const inv = unwrapCommand(command.words);
  return inv ? nestedOf(inv, command, piped).scripts : [];
}
