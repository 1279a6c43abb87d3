import { SHELLS, shellScript, type Invocation } from "./invocation.ts";
import type { ShellCommand, ShellWord } from "./shell-parse.ts";

/**
 * The one reader of scripts inside commands, used by the guard (guard.ts) and by the permission
 * rules and grants (command-parts.ts), so both see the same nested commands.
 */
export type Nested = {
  /** Command lines the command runs on top of itself, to be read in turn as bash lines. */
  scripts: string[];
  /**
   * Set when the command runs code shiro cannot read reliably (inline interpreter code such as
   * `python3 -c`, an awk `system()` of a computed string): why, as a clause.
   */
  opaque?: string;
};

/** A word as bash would read it back: in single quotes unless it needs none. */
export function quoteWord(text: string): string {
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);
/** Interpreters and the options that hand them code inline. */
const INLINE_CODE: ReadonlyArray<{ name: RegExp; options: RegExp; subcommands?: readonly string[] }> = [
  { name: /^(?:python|pypy)[0-9.]*$/, options: /^-[A-Za-z]*c/ },
  { name: /^(?:node|nodejs)$/, options: /^(?:-[A-Za-z]*[ep]|--eval|--print)(?:=|$)/ },
  { name: /^bun$/, options: /^(?:-e|-p|--eval|--print)(?:=|$)/, subcommands: ["eval"] },
  { name: /^deno$/, options: /^(?:--eval)$/, subcommands: ["eval"] },
  { name: /^perl[0-9.]*$/, options: /^-[A-Za-z]*[eE]/ },
  { name: /^ruby[0-9.]*$/, options: /^-[A-Za-z]*e/ },
  { name: /^php[0-9.]*$/, options: /^-[A-Za-z]*[rRBE]/ },
  { name: /^(?:lua|luajit)[0-9.]*$/, options: /^-[A-Za-z]*e/ },
  { name: /^Rscript$/, options: /^(?:-e|--expr)/ },
  { name: /^(?:R)$/, options: /^(?:-e)$/ },
  { name: /^(?:pwsh|powershell)$/, options: /^-(?:c|command|encodedcommand|e)$/i },
  { name: /^osascript$/, options: /^-[A-Za-z]*e/ },
  { name: /^(?:tclsh|wish)[0-9.]*$/, options: /^$/ },
];

/**
 * What a simple command runs besides itself. `piped` is true when its input comes from the
 * command before it through `|`. Follows: the scripts of wrappers (`flock -c`, `su -c`, `watch`,
 * `env -S`), `eval`, a shell's `-c` script or, with none, its heredocs and here-strings (also for
 * `source`), `find -exec/-execdir/-ok/-okdir`, awk's `system()` and pipes to commands, `trap`,
 * and git's `rebase -x/--exec`, `submodule foreach`, `bisect run` and `difftool -x/--extcmd`.
 * Wrappers (sudo, env, exec, nice, timeout, xargs, …) are already peeled by unwrapCommand.
 */
export function nestedOf(inv: Invocation, command: ShellCommand, piped = false): Nested {
  const scripts = [...inv.scripts];
  const stdinScripts = () => [...command.heredocs, ...command.redirects.filter((r) => r.op === "<<<" && r.target).map((r) => r.target!.text)];
  const { name, args } = inv;
  if (name === "eval") scripts.push(args.map((arg) => arg.text).join(" "));
  else if (SHELLS.has(name)) {
    const script = shellScript(args);
    scripts.push(...(script !== undefined ? [script] : stdinScripts()));
  } else if (name === "source" || name === ".") scripts.push(...stdinScripts());
  else if (name === "find") scripts.push(...findCommands(args).map((words) => words.map(quoteWord).join(" ")));
  else if (name === "trap") {
    const rest = args[0]?.text === "--" ? args.slice(1) : args;
    const action = rest[0]?.text;
    if (action !== undefined && rest.length > 1 && action !== "-" && !/^-[lp]$/.test(action)) scripts.push(action);
  } else if (name === "git") scripts.push(...gitScripts(args));
  else if (AWKS.has(name)) {
    const awk = awkCommands(args);
    scripts.push(...awk.scripts);
    if (awk.opaque) return { scripts, opaque: awk.opaque };
  }
  const opaque = inlineCode(inv, command, piped);
  return opaque ? { scripts, opaque } : { scripts };
}

/** The commands `find` runs with `-exec`, `-execdir`, `-ok` and `-okdir`, as words (`{}` kept). */
export function findCommands(args: readonly ShellWord[]): string[][] {
  const commands: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!.text)) continue;
    const words: string[] = [];
    for (i++; i < args.length && args[i]!.text !== ";" && !(args[i]!.text === "+" && words.at(-1) === "{}"); i++) words.push(args[i]!.text);
    if (words.length > 0) commands.push(words);
  }
  return commands;
}

/** Command lines git runs from its arguments: `rebase -x`, `submodule foreach`, `bisect run`, `difftool -x`. */
function gitScripts(words: readonly ShellWord[]): string[] {
  let i = 0;
  while (i < words.length && words[i]!.text.startsWith("-")) i += /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env|--super-prefix)$/.test(words[i]!.text) ? 2 : 1;
  const sub = words[i]?.text;
  const args = words.slice(i + 1).map((word) => word.text);
  const scripts: string[] = [];
  const optionValues = (short: string, long: string) => {
    args.forEach((arg, k) => {
      if (arg === short || arg === long) scripts.push(args[k + 1] ?? "");
      else if (arg.startsWith(`${long}=`)) scripts.push(arg.slice(long.length + 1));
      else if (short && arg.startsWith(short) && !arg.startsWith("--") && arg.length > 2) scripts.push(arg.slice(2));
    });
  };
  if (sub === "rebase") optionValues("-x", "--exec");
  if (sub === "difftool") optionValues("-x", "--extcmd");
  if (sub === "submodule") {
    const at = args.indexOf("foreach");
    if (at !== -1) {
      const rest = args.slice(at + 1).filter((arg) => arg !== "--recursive" && arg !== "-q" && arg !== "--quiet");
      if (rest.length > 0) scripts.push(rest.join(" "));
    }
  }
  if (sub === "bisect" && args[0] === "run" && args.length > 1) scripts.push(args.slice(1).map(quoteWord).join(" "));
  return scripts;
}

const AWK_STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const AWK_SYSTEM = new RegExp(String.raw`\bsystem\s*\(\s*${AWK_STRING}\s*\)`, "g");
const AWK_PIPE_TO = new RegExp(String.raw`\|&?\s*${AWK_STRING}`, "g");
const AWK_PIPE_FROM = new RegExp(String.raw`${AWK_STRING}\s*\|&?\s*getline`, "g");

/**
 * The commands an awk program runs: the literal strings given to `system()`, printed into
 * (`print | "cmd"`) or read from (`"cmd" | getline`). A program that runs a command it builds at
 * run time (`system(x)`, `print | cmd`) is opaque. A program from a file (`-f`) is not read.
 */
function awkCommands(args: readonly ShellWord[]): Nested {
  let program: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--") {
      program = args[i + 1]?.text;
      break;
    }
    if (/^-(?:f|-file)$/.test(text) || text.startsWith("--file=")) return { scripts: [] };
    if (/^(?:-e|--source)$/.test(text)) {
      program = args[i + 1]?.text;
      break;
    }
    if (/^-[Fvf]$|^-W$/.test(text)) {
      i++;
      continue;
    }
    if (text.startsWith("-") && text !== "-") continue;
    program = text;
    break;
  }
  if (program === undefined) return { scripts: [] };
  const unescape = (s: string) => s.replace(/\\(.)/g, "$1");
  const scripts = [...program.matchAll(AWK_SYSTEM), ...program.matchAll(AWK_PIPE_TO), ...program.matchAll(AWK_PIPE_FROM)].map((m) => unescape(m[1]!));
  const systems = (program.match(/\bsystem\s*\(/g) ?? []).length > (program.match(AWK_SYSTEM) ?? []).length;
  const printPipes = [...program.matchAll(/\bprintf?\b[^;{}\n]*?\|(?!\|)&?\s*(\S)/g)].some((m) => m[1] !== '"');
  const getlinePipes = [...program.matchAll(/(\S)\s*\|&?\s*getline/g)].some((m) => m[1] !== '"');
  if (systems || printPipes || getlinePipes) return { scripts, opaque: "its awk program runs a command it builds when it runs" };
  return { scripts };
}

/**
 * Why a command runs interpreter code shiro cannot read reliably, or undefined: inline code
 * (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `deno eval`, …) or code fed on
 * stdin (`python3 <<EOF`, `… | node`, `python3 -`).
 */
function inlineCode(inv: Invocation, command: ShellCommand, piped: boolean): string | undefined {
  const entry = INLINE_CODE.find((e) => e.name.test(inv.name));
  if (!entry) return undefined;
  const args = inv.args.map((arg) => arg.text);
  const option = args.find((arg) => arg.startsWith("-") && entry.options.test(arg));
  if (option) return `it hands ${inv.name} code inline (${option})`;
  if (entry.subcommands?.includes(args[0] ?? "")) return `it hands ${inv.name} code inline (${args[0]})`;
  const operand = args.find((arg) => !arg.startsWith("-"));
  const fed = command.heredocs.length > 0 || command.redirects.some((r) => r.op === "<<<") || piped;
  if ((operand === undefined || operand === "-") && fed) return `it feeds ${inv.name} code on its input`;
  return undefined;
}
