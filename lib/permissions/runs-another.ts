import type { Invocation } from "./invocation.ts";
import type { ShellWord } from "./shell-parse.ts";

/**
 * Per program, the options that make it run another program (or a command line) of the caller's
 * choosing. A grant ("always") for the program never covers them: a saved `git fetch *` must not
 * cover `git fetch --upload-pack='…'`. Options are read per program, since the same letter means
 * other things elsewhere (`grep -c` counts, `git -c` sets config, `find -exec` runs a command).
 * `short`: letters that count alone or inside a cluster (`-avze`); `long`: long options, matched
 * by any prefix the program would accept (`--upload` for `--upload-pack`); `words`: whole words.
 */
type Table = { short?: string; long?: readonly string[]; words?: RegExp; always?: boolean };

const TABLE: Readonly<Record<string, Table>> = {
  find: { words: /^-(?:exec|execdir|ok|okdir)$/ },
  tar: { short: "IF", long: ["--to-command", "--use-compress-program", "--checkpoint-action", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"] },
  rsync: { short: "e", long: ["--rsh", "--rsync-path"] },
  ssh: { short: "oF", words: /^-o/ },
  scp: { short: "oFS", words: /^-o/ },
  sftp: { short: "oFSD", words: /^-o/ },
  man: { short: "PH", long: ["--pager", "--html"] },
  less: { words: /^\+/ },
  more: { words: /^\+/ },
  sort: { long: ["--compress-program"] },
  zip: { words: /^(?:-TT|--unzip-command)/ },
  vi: { words: /^(?:-c|--cmd|-S|\+)/ },
  vim: { words: /^(?:-c|--cmd|-S|\+)/ },
  nvim: { words: /^(?:-c|--cmd|-S|\+)/ },
  ex: { words: /^(?:-c|--cmd|-S|\+)/ },
  parallel: { always: true },
};

/** git options that run a program, or point git at another repository whose config it would read. */
const GIT_GLOBAL = /^(?:-c.*|--config-env(?:=.*)?|--exec-path(?:=.*)?|-C|--git-dir(?:=.*)?|--work-tree(?:=.*)?)$/;
const GIT_SUB: Readonly<Record<string, Table>> = {
  fetch: { long: ["--upload-pack"] },
  pull: { long: ["--upload-pack"] },
  "ls-remote": { long: ["--upload-pack"] },
  clone: { short: "uc", long: ["--upload-pack", "--template", "--config"] },
  archive: { long: ["--exec"] },
  push: { long: ["--receive-pack", "--exec"] },
  "send-pack": { long: ["--receive-pack", "--exec"] },
  rebase: { short: "x", long: ["--exec"] },
  difftool: { short: "x", long: ["--extcmd"] },
  grep: { short: "O", long: ["--open-files-in-pager"] },
  submodule: { words: /^foreach$/ },
  bisect: { words: /^run$/ },
};

/** Variables that name a program, a library or options a program loads: set before a command, they change what it runs. */
const PROGRAM_VARIABLE =
  /^(?:LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|SHELL|SHELLOPTS|PROMPT_COMMAND|IFS|GIT_(?:SSH|SSH_COMMAND|ASKPASS|EDITOR|SEQUENCE_EDITOR|PAGER|EXTERNAL_DIFF|EXEC_PATH|PROXY_COMMAND|TEMPLATE_DIR|DIR|WORK_TREE|CONFIG\w*)|\w*PAGER|EDITOR|VISUAL|BROWSER|SSH_ASKPASS|\w*_COMMAND|\w*_RSH|LESSOPEN|LESSCLOSE|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|TAR_OPTIONS|MAKEFLAGS|MAKESHELL|npm_config_\w+|NPM_CONFIG_\w+)$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/**
 * Which option, variable or wrapper of a simple command makes it run another program, as written
 * (`--upload-pack=x`, `LD_PRELOAD=…`, `through xargs`), or undefined. `words` is the command as
 * written, `inv` the same with wrappers peeled (unwrapCommand).
 */
export function runsAnotherProgram(words: readonly ShellWord[], inv: Invocation): string | undefined {
  for (const word of words) {
    const assignment = ASSIGNMENT.exec(word.text);
    if (!assignment) break;
    if (PROGRAM_VARIABLE.test(assignment[1]!)) return `${assignment[1]}=`;
  }
  if (inv.wrappers.length > 0) return `it runs ${inv.name} through ${inv.wrappers.join(", ")}`;
  const args = inv.args.map((arg) => arg.text);
  if (inv.name === "git") return gitOption(args);
  if (inv.name === "sed") return sedExecutes(args);
  if (/^(?:awk|gawk|mawk|nawk)$/.test(inv.name)) return args.find((arg) => /\bsystem\s*\(|\|/.test(arg));
  const table = Object.hasOwn(TABLE, inv.name) ? TABLE[inv.name] : undefined;
  if (!table) return undefined;
  if (table.always) return inv.name;
  return optionIn(args, table, inv.name === "tar");
}

function gitOption(args: readonly string[]): string | undefined {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith("-"); i++) {
    if (GIT_GLOBAL.test(args[i]!)) return args[i];
    if (/^(?:--namespace|--super-prefix)$/.test(args[i]!)) i++;
  }
  const sub = args[i];
  const table = sub !== undefined && Object.hasOwn(GIT_SUB, sub) ? GIT_SUB[sub] : undefined;
  return table ? optionIn(args.slice(i + 1), table, false) : undefined;
}

/** The first argument the table names. `oldStyle`: tar's first word may be a cluster without a dash (`xIf`). */
function optionIn(args: readonly string[], table: Table, oldStyle: boolean): string | undefined {
  return args.find((arg, index) => {
    if (arg === "--") return false;
    if (table.words?.test(arg)) return true;
    if (table.long && arg.startsWith("--")) {
      const name = arg.split("=")[0]!;
      return name.length > 3 && table.long.some((long) => long.startsWith(name));
    }
    const cluster = /^-[A-Za-z0-9]+/.exec(arg)?.[0].slice(1) ?? (oldStyle && index === 0 && /^[A-Za-z]+$/.test(arg) ? arg : undefined);
    return cluster !== undefined && table.short !== undefined && [...cluster].some((letter) => table.short!.includes(letter));
  });
}

/** GNU sed's `e` command (`1e cmd`) and the `e` flag of `s///e` run the shell. */
function sedExecutes(args: readonly string[]): string | undefined {
  const scripts: string[] = [];
  let explicit = false;
  args.forEach((arg, i) => {
    if (arg === "-e" || arg === "--expression") {
      scripts.push(args[i + 1] ?? "");
      explicit = true;
    } else if (arg.startsWith("--expression=")) {
      scripts.push(arg.slice(13));
      explicit = true;
    } else if (/^-[A-Za-z]*e./.test(arg) && !arg.startsWith("--")) {
      scripts.push(arg.slice(arg.indexOf("e") + 1));
      explicit = true;
    }
  });
  if (!explicit) {
    const first = args.find((arg) => !arg.startsWith("-"));
    if (first !== undefined) scripts.push(first);
  }
  if (args.some((arg) => arg === "-f" || arg.startsWith("--file"))) return "-f";
  return scripts.find((script) => /(?:^|[;{}\n])\s*(?:[0-9$,]+|\/(?:[^/\\]|\\.)*\/)?\s*e(?:\s|;|$)/.test(script) || /s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gpIiMm0-9w]*e/.test(script));
}
