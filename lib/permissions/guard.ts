import { findRefusal } from "./find-refusal.ts";
import { configWrite, gitRecordsWrite } from "./git-hand-writes.ts";
import { gitRefusal, parseGit } from "./git-refusal.ts";
import { programComputed, SHELLS, shellOptionProblem, shellScript, unwrapCommand, type Invocation } from "./invocation.ts";
import { matchPattern } from "./match-pattern.ts";
import { nestedOf, quoteWord as quote } from "./nested.ts";
import { expandBraces, resolvePathWord, type Where } from "./path-word.ts";
import { rmRefusal } from "./rm-refusal.ts";
import { parseShell, pipelines, type ShellCommand } from "./shell-parse.ts";

/** A bash command the guard will not let through, whatever the permission settings. */
export type GuardRefusal = {
  /** The piece that was refused, as written: one command, or a whole pipeline for `curl | sh`. */
  command: string;
  /** Why it destroys work, as a clause: "it deletes the workspace root /w itself". */
  why: string;
};

export type GuardOptions = {
  /** Workspace root: deletions must stay strictly inside it. */
  root: string;
  /** Where the command starts; defaults to root. */
  cwd?: string;
  /** Home directory, so `rm -rf ~/ws/build` can be judged; without it every `~` path is refused. */
  home?: string;
  /** Config `guard.allow`: a refused piece matching one of these patterns is let through. */
  allow?: readonly string[];
};

/** Scripts inside scripts (`bash -c "sh -c '…'"`, `$(…)` in `$(…)`) deeper than this are refused unread. */
const MAX_NESTING = 6;

/** `name(){ name|name& }`. The body is bounded so a long line costs linear time; real fork bombs are short. */
const FORK_BOMB = /(?:function\s+)?([^\s(){};|&<>]+)\s*(?:\(\s*\))?\s*\{[^}]{0,200}?\1\s*\|\s*\1\s*&/;
const SQL_DESTROY = /\b(?:drop|truncate)\s+(?:table|database|schema)\b/i;
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c"]);
const DOWNLOAD_SUBSTITUTION = /(?:\$\(|`|<\()\s*(?:sudo\s+)?(?:curl|wget)\b/;
/** Device files that are not disks: writing to them loses nothing. */
const HARMLESS_DEVICE = /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|fd\/\d+|shm\/.*)$/;
/** Commands whose arguments are only text to show or search: a SQL statement in them is not run. */
const INERT = new Set(["echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "cat", "head", "tail", "wc", "sort", "uniq", "tee", "less", "more"]);
const INERT_GIT = new Set(["commit", "log", "show", "grep", "diff", "tag"]);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;
const DECLARE = new Set(["export", "local", "declare", "typeset", "readonly"]);
const VARIABLE_COMMAND = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;
/** Variables that would undo what keeps git from running the repository's programs (lib/sandbox/git-safety.ts). */
const GIT_SAFETY_VARIABLE = /^(?:GIT_CONFIG\w*|GIT_EXTERNAL_DIFF|GIT_PAGER|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)$/;
const GIT_CONFIG_HOME = /^(?:HOME|XDG_CONFIG_HOME)$/;
const UNREADABLE = "shiro cannot check it without running it, so it is not run (the sandbox lets commands change the workspace and its .git)";

/** Literal values given to variables earlier in the line: `X="rm -rf /"; $X` runs rm. */
type Variables = ReadonlyMap<string, string>;

type Context = { where: Where; depth: number; known: Variables };

/**
 * Checks a bash command line for things that destroy work: `rm -r`/`-f` outside the workspace or
 * on its root, `find -delete`/`-exec rm` from the root or `.git`, every git operation that loses
 * work (git-refusal.ts: forced pushes, resets, cleans, branch moves, plumbing, forcing config),
 * hand writes to git's refs and objects, SQL `DROP` / `TRUNCATE`, `mkfs`, writes to disk devices,
 * fork bombs and downloaded scripts piped into a shell. Compound commands, subshells, `$(…)`,
 * backticks, brace lists, wrappers such as `sudo`, `env`, `setsid`, `flock`, `script -c` and
 * `xargs`, and the nested scripts nested.ts reads (`bash -c`, `eval`, heredocs and here-strings
 * fed to a shell, `find -exec`, awk `system()`, …) are looked through. Paths are judged where they really are (symlinks followed, globs expanded on
 * disk), so the guard reads the file system; it never changes it. It also refuses what it cannot
 * read: a shell whose script is not literal (from a pipe, a here-string with an expansion,
 * process substitution, `-O`/`-o` options, `env -S`), a program name that is an expansion
 * (`$(echo rm) -rf x`), and changes to the variables that keep git safe. It judges the same with
 * and without the sandbox: the sandbox lets commands write the workspace, `.git` included, and
 * reach remotes, which is what these commands destroy. Returns the first refusal that `allow`
 * does not cover. A seatbelt, not a sandbox: what a script file or Makefile does is not seen.
 */
export function guardCommand(command: string, opts: GuardOptions): GuardRefusal | undefined {
  const where: Where = { root: opts.root, cwd: opts.cwd ?? opts.root, home: opts.home };
  const allowed = (refusal: GuardRefusal) => (opts.allow ?? []).some((pattern) => matchPattern(pattern, refusal.command));
  return findRefusals(command, { where, depth: 0, known: new Map() }).find((refusal) => !allowed(refusal));
}

function findRefusals(src: string, ctx: Context): GuardRefusal[] {
  if (ctx.depth > MAX_NESTING) return [{ command: src.trim(), why: "it nests scripts too deeply for shiro to check" }];
  const refusals: GuardRefusal[] = [];
  const nested = (script: string, where: Where, known: Variables) => findRefusals(script, { ...ctx, where, known, depth: ctx.depth + 1 });
  const bomb = FORK_BOMB.exec(src);
  if (bomb) refusals.push({ command: src.trim(), why: "it is a fork bomb, which freezes the machine" });

  const parsed = parseShell(src);
  for (const inner of parsed.substitutions) refusals.push(...nested(inner, ctx.where, ctx.known));

  let where = ctx.where;
  let configWritten: string | undefined;
  const variables = new Map(ctx.known);
  for (const pipeline of pipelines(parsed.commands)) {
    const invocations = pipeline.map((command) => unwrapCommand(command.words));
    const pipelineText = pipeline.map((command) => command.source).join(" | ");

    const downloader = invocations.findIndex((inv) => inv !== undefined && DOWNLOADERS.has(inv.name));
    if (downloader !== -1 && invocations.slice(downloader + 1).some((inv) => inv !== undefined && SHELLS.has(inv.name))) {
      refusals.push({ command: pipelineText, why: "it runs a script downloaded from the internet without anyone reading it" });
    }
    if (!isInertPipeline(invocations) && pipeline.some((command) => SQL_DESTROY.test(sqlText(command)))) {
      refusals.push({ command: pipelineText, why: "it drops or empties a database table, schema or database" });
    }

    pipeline.forEach((command, index) => {
      const inv = invocations[index];
      for (const redirect of command.redirects) {
        const target = redirect.target?.text ?? "";
        if (/>/.test(redirect.op) && target.startsWith("/dev/") && !HARMLESS_DEVICE.test(target)) {
          refusals.push({ command: command.source, why: `it writes straight to the device ${target}` });
        }
      }
      const recordsWrite = gitRecordsWrite(command, inv);
      if (recordsWrite) refusals.push({ command: command.source, why: recordsWrite });
      configWritten ??= configWrite(command, inv);
      if (configWritten && inv?.name === "git" && isPlainPush(inv)) {
        refusals.push({ command: command.source, why: `the line writes ${configWritten} before it pushes, and a config can make the push force or delete refs on the remote` });
      }
      const gitVariable = gitSafetyChange(command, inv);
      if (gitVariable) {
        const why = GIT_CONFIG_HOME.test(gitVariable)
          ? `it changes ${gitVariable}, which chooses the config file git reads, and a config can name programs or make a push force`
          : `it changes ${gitVariable}, which shiro sets so that git runs no program from the repository's config, and which can carry git settings`;
        refusals.push({ command: command.source, why });
      }
      recordAssignments(command, variables);
      if (!inv) return;
      const variable = VARIABLE_COMMAND.exec(command.words.find((word) => !ASSIGNMENT.test(word.text))?.text ?? "");
      const value = variable ? variables.get(variable[1] ?? variable[2]!) : undefined;
      if (value !== undefined) {
        const expanded = [value, ...inv.args.map((arg) => quote(arg.text))].join(" ");
        refusals.push(...nested(expanded, where, variables));
        return;
      }
      if (inv.program.brace && expandBraces(inv.program.text).length > 1) {
        // `{rm,-rf,x}`: bash makes the words first; judge the command they make.
        const expanded = [...expandBraces(inv.program.text).map(quote), ...inv.args.map((arg) => quote(arg.text))].join(" ");
        refusals.push(...nested(expanded, where, variables));
        return;
      }
      if (programComputed(inv.program)) {
        refusals.push({ command: command.source, why: `its program name ${inv.program.text} is only known when it runs, so ${UNREADABLE}` });
        return;
      }
      if (inv.name === "cd" || inv.name === "pushd" || inv.name === "popd") {
        where = { ...where, cwd: nextCwd(inv, where) };
        return;
      }
      const why = invocationRefusal(inv, where);
      if (why) refusals.push({ command: command.source, why });
      const unreadable = unreadableScript(inv, command, index);
      // A script piped into a shell is refused as the whole pipeline, as `curl … | sh` is.
      if (unreadable) refusals.push({ command: index > 0 ? pipelineText : command.source, why: unreadable });
      for (const script of nestedOf(inv, command, index > 0).scripts) refusals.push(...nested(script, where, variables));
    });
  }
  return refusals;
}

/** The git-safety variable a command sets or unsets (`GIT_CONFIG_COUNT=0 git log`, `export GIT_PAGER=…`, `env GIT_EXTERNAL_DIFF=…`), if any. */
function gitSafetyChange(command: ShellCommand, inv: Invocation | undefined): string | undefined {
  const names: string[] = [];
  for (const word of command.words) {
    const assignment = ASSIGNMENT.exec(word.text);
    if (!assignment) break;
    names.push(assignment[1]!);
  }
  const first = command.words.find((word) => !ASSIGNMENT.test(word.text))?.text;
  if (first && (DECLARE.has(first) || first === "unset" || first === "env")) {
    for (const word of command.words.slice(1)) names.push(ASSIGNMENT.exec(word.text)?.[1] ?? word.text);
  }
  if (inv?.wrappers.includes("env")) for (const word of command.words) names.push(ASSIGNMENT.exec(word.text)?.[1] ?? "");
  // HOME and XDG_CONFIG_HOME choose the user config git reads (`HOME=. git push` with a planted ./.gitconfig).
  const declaring = first !== undefined && DECLARE.has(first);
  return names.find((name) => GIT_SAFETY_VARIABLE.test(name) || (GIT_CONFIG_HOME.test(name) && (inv?.name === "git" || declaring)));
}

/**
 * Why a command's script cannot be read before it runs: a shell
 * fed its script through a pipe, process substitution or an expanding here-string; shell options
 * that change how a script is read; `env -S`.
 */
function unreadableScript(inv: Invocation, command: ShellCommand, index: number): string | undefined {
  if (inv.splitString) return `it hands env -S a string that env splits into a command by its own rules, so ${UNREADABLE}`;
  if (inv.name === "parallel") return `GNU parallel runs commands it builds from its input and arguments, so ${UNREADABLE}`;
  if (inv.moreArgs && SHELLS.has(inv.name)) return `xargs hands ${inv.name} a script or arguments that come from its input, so ${UNREADABLE}`;
  const sourcing = inv.name === "source" || inv.name === ".";
  if (!SHELLS.has(inv.name) && !sourcing) return undefined;
  const processSubstitution = inv.args.some((arg) => /^<\(/.test(arg.text)) || command.redirects.some((r) => r.op === "<" && /^<\(/.test(r.target?.text ?? ""));
  if (processSubstitution) return `it runs a script that comes from another command (process substitution), so ${UNREADABLE}`;
  if (sourcing) return undefined;
  const option = shellOptionProblem(inv.args);
  if (option) return `${option}, so ${UNREADABLE}`;
  const script = shellScript(inv.args);
  const operand = inv.args.find((arg) => !arg.text.startsWith("-") && !arg.text.startsWith("+"));
  if (script === undefined && (operand === undefined || operand.text === "-" || /^\/dev\/(?:stdin|fd\/)/.test(operand.text))) {
    const hereString = command.redirects.find((r) => r.op === "<<<");
    if (hereString?.target?.expands) return `it feeds the shell a script built when it runs (a here-string with an expansion), so ${UNREADABLE}`;
    const fromFile = command.redirects.some((r) => r.op === "<" || r.op === "<<" || r.op === "<<-" || r.op === "<<<");
    if (index > 0 && !fromFile) return `it pipes a script into ${inv.name}, so ${UNREADABLE}`;
  }
  return undefined;
}

/** A `git push` without refspecs on the line, which takes what to push from the config. */
function isPlainPush(inv: Invocation): boolean {
  const git = parseGit(inv.args);
  return git.sub === "push" && git.args.filter((arg) => !arg.startsWith("-")).length <= 1;
}

/** Remembers `X=value` and `export X=value` commands that assign and run nothing else. */
function recordAssignments(command: ShellCommand, variables: Map<string, string>): void {
  const words = DECLARE.has(command.words[0]?.text ?? "") ? command.words.slice(1) : command.words;
  if (words.length === 0 || !words.every((word) => ASSIGNMENT.test(word.text))) return;
  for (const word of words) {
    const [, name, value] = ASSIGNMENT.exec(word.text)!;
    variables.set(name!, value!);
  }
}

function invocationRefusal(inv: Invocation, where: Where): string | undefined {
  const { name, args } = inv;
  if (name === "rm") return rmRefusal(args, where, { moreArgs: inv.moreArgs });
  if (name === "git") return gitRefusal(args, where.cwd, where.home);
  if (name === "find") return findRefusal(args, where);
  if (name.startsWith("mkfs") || name === "mke2fs") return "it formats a file system, erasing everything on it";
  if (name === "dd") {
    const device = args.find((arg) => arg.text.startsWith("of=/dev/") && !HARMLESS_DEVICE.test(arg.text.slice(3)));
    return device ? `it writes straight to the device ${device.text.slice(3)}` : undefined;
  }
  if (SHELLS.has(name) || name === "source" || name === "." || name === "eval") {
    if (args.some((arg) => DOWNLOAD_SUBSTITUTION.test(arg.text))) {
      return "it runs a script downloaded from the internet without anyone reading it";
    }
  }
  return undefined;
}

/** A pipeline made only of commands that show or search text: SQL in it is a string, not a statement. */
function isInertPipeline(invocations: readonly (Invocation | undefined)[]): boolean {
  return invocations.every((inv) => {
    if (!inv) return true;
    if (inv.name === "git") return INERT_GIT.has(inv.args.find((arg) => !arg.text.startsWith("-"))?.text ?? "");
    return INERT.has(inv.name);
  });
}

function sqlText(command: ShellCommand): string {
  return [command.source, ...command.heredocs].join("\n");
}

/** The working directory after `cd`/`pushd`/`popd`; undefined when it cannot be told from the text. */
function nextCwd(inv: Invocation, where: Where): string | undefined {
  if (inv.name === "popd") return undefined;
  const target = inv.args.find((arg) => !/^-[LPe@]*$/.test(arg.text) || arg.text === "-");
  if (!target) return where.home;
  if (target.text === "-") return undefined;
  const resolved = resolvePathWord(target.text, target, where);
  if (resolved.kind === "home") return where.home;
  return resolved.kind === "path" && !target.glob ? resolved.abs : undefined;
}
