import type { ShellWord } from "./shell-parse.ts";

/**
 * A simple command with wrappers peeled off: `sudo env X=1 /bin/rm -rf /` → `rm` with `-rf /`.
 * `program` is the word that names it as written (`/bin/rm`); `scripts` are shell scripts a
 * wrapper runs on top (`flock f -c '…'`, `su -c '…'`, `script -qc '…'`, `watch '…'`, `env -S '…'`);
 * `moreArgs` is set when a wrapper adds arguments only known at run time (`xargs rm -rf`);
 * `splitString` when `env -S` split a string into the command, which env does by its own rules.
 */
export type Invocation = {
  name: string;
  args: ShellWord[];
  program: ShellWord;
  wrappers: string[];
  scripts: string[];
  moreArgs: boolean;
  splitString: boolean;
};

/** Reserved words that may start a command; the command proper follows them. */
const KEYWORDS = new Set(["!", "{", "}", "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "esac"]);

/** Shells that run a script given with -c, on stdin or in a heredoc. */
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash"]);

export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

type Wrapper = {
  /** Options that take a separate argument. */
  argOptions: string[];
  /** Options whose argument is a shell script the wrapper runs (`-c`). */
  scriptOptions?: string[];
  /** Operands before the command: timeout's duration, flock's lock file. */
  operands?: number;
  /** The command's arguments come partly from stdin (xargs). */
  moreArgs?: boolean;
  /** Everything after the options is one script (watch). */
  restIsScript?: boolean;
};

/**
 * Wrappers: programs that run the command that follows their options. Peeling them makes
 * `sudo rm -rf /`, `setsid rm -rf /` or `xargs rm -rf` look like `rm` to the guard and the rules.
 */
const WRAPPERS: Record<string, Wrapper> = {
  sudo: { argOptions: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R"] },
  doas: { argOptions: ["-u", "-C"] },
  env: { argOptions: ["-u", "-C", "--unset", "--chdir"] },
  command: { argOptions: [] },
  builtin: { argOptions: [] },
  exec: { argOptions: ["-a"] },
  nohup: { argOptions: [] },
  setsid: { argOptions: [] },
  time: { argOptions: ["-f", "-o", "--format", "--output"] },
  nice: { argOptions: ["-n", "--adjustment"] },
  ionice: { argOptions: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  chrt: { argOptions: [], operands: 1 },
  taskset: { argOptions: [], operands: 1 },
  timeout: { argOptions: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  stdbuf: { argOptions: ["-i", "-o", "-e"] },
  busybox: { argOptions: [] },
  chronic: { argOptions: [] },
  unbuffer: { argOptions: [] },
  fakeroot: { argOptions: ["-l", "-s", "-i", "--lib", "--faked"] },
  strace: { argOptions: ["-o", "-e", "-p", "-s", "-u", "-E", "-P"] },
  ltrace: { argOptions: ["-o", "-e", "-p", "-s", "-u"] },
  unshare: { argOptions: ["-S", "-G", "--setuid", "--setgid", "-R", "-w", "--root", "--wd"] },
  flock: { argOptions: ["-w", "-E", "--timeout", "--conflict-exit-code"], scriptOptions: ["-c", "--command"], operands: 1 },
  script: { argOptions: ["-E", "-I", "-O", "-B", "-T", "-m", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format"], scriptOptions: ["-c", "--command"] },
  su: { argOptions: ["-g", "-G", "-s", "-w", "--group", "--shell"], scriptOptions: ["-c", "--command"] },
  runuser: { argOptions: ["-u", "-g", "-G", "-s", "-w", "--user", "--group", "--shell"], scriptOptions: ["-c", "--command"] },
  xargs: {
    argOptions: ["-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-lines", "--max-procs", "--max-chars", "--process-slot-var"],
    moreArgs: true,
  },
  watch: { argOptions: ["-n", "-d", "--interval", "--differences", "-q"], restIsScript: true },
};

/**
 * True when the program word is only known when it runs: an expansion (`$(echo rm)`, `$X`) or a
 * glob bash would expand (`/bin/r?`, `/bin/[r]m`). The test commands `[` and `[[` hold a bracket
 * but no bracket expression, so bash runs them as written.
 */
export function programComputed(program: ShellWord): boolean {
  return program.expands || (program.glob && /[*?]|\[[^\]]+\]/.test(program.text));
}

/** The program a word names: `/usr/bin/rm` and `\rm` both name `rm`. */
export function programName(text: string): string {
  const base = text.replace(/\/+$/, "").split("/").pop();
  return base || text;
}

/**
 * Peels keywords, variable assignments and wrappers (sudo, env, command, exec, nohup, setsid,
 * time, nice, timeout, flock, script, su, xargs, watch, …) off a simple command. Undefined when
 * nothing is left to run (`X=1`, `command -v rm`). A wrapper whose command is a script
 * (`su -c '…'`, `watch '…'`, `env -S '…'`) comes back as itself, with the script in `scripts`.
 */
export function unwrapCommand(words: readonly ShellWord[]): Invocation | undefined {
  let i = 0;
  const wrappers: string[] = [];
  const scripts: string[] = [];
  let moreArgs = false;
  let splitString = false;
  for (;;) {
    while (i < words.length && (KEYWORDS.has(words[i]!.text) || ASSIGNMENT.test(words[i]!.text))) i++;
    if (i >= words.length) return undefined;
    const programWord = words[i]!;
    const name = programName(programWord.text);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    const done = (args: ShellWord[]): Invocation => ({ name, args, program: programWord, wrappers, scripts, moreArgs, splitString });
    if (!wrapper) return done(words.slice(i + 1));
    if (name === "command" && /^-[a-zA-Z]*[vV]/.test(words[i + 1]?.text ?? "")) return undefined; // a lookup, runs nothing
    const start = i;
    i++;
    let ownScript = false;
    // Options, then the wrapper's own operands (timeout's duration), then the command.
    while (i < words.length) {
      const text = words[i]!.text;
      if (text === "--") {
        i++;
        break;
      }
      if (name === "env" && ASSIGNMENT.test(text)) {
        i++;
        continue;
      }
      if (name === "env" && (text === "-S" || text === "--split-string" || text.startsWith("--split-string=") || /^-[iv0]*S./.test(text))) {
        // env splits the string into the command by its own rules: read it as a script.
        const inline = text.startsWith("--split-string=") ? text.slice(15) : /^-[iv0]*S(.+)$/.exec(text)?.[1];
        const value = inline ?? words[i + 1]?.text ?? "";
        scripts.push([value, ...words.slice(i + (inline === undefined ? 2 : 1)).map((w) => w.text)].join(" "));
        splitString = true;
        wrappers.push(name);
        return { name: "env", args: words.slice(start + 1), program: programWord, wrappers, scripts, moreArgs, splitString };
      }
      if (!text.startsWith("-") || text === "-") {
        if (text === "-" && (name === "env" || name === "su")) {
          i++;
          continue;
        }
        break;
      }
      const scriptOption = wrapper.scriptOptions?.find((option) => text === option || text.startsWith(`${option}=`) || (option.length === 2 && text.startsWith("-") && !text.startsWith("--") && text.endsWith(option[1]!)));
      if (scriptOption) {
        const inline = text.startsWith(`${scriptOption}=`) ? text.slice(scriptOption.length + 1) : undefined;
        scripts.push(inline ?? words[i + 1]?.text ?? "");
        ownScript = true;
        i += inline === undefined ? 2 : 1;
        continue;
      }
      i += wrapper.argOptions.includes(text) ? 2 : 1;
    }
    wrappers.push(name);
    if (wrapper.restIsScript) {
      scripts.push(words.slice(i).map((w) => w.text).join(" "));
      return { name, args: words.slice(start + 1), program: programWord, wrappers, scripts, moreArgs, splitString };
    }
    if (ownScript) return { name, args: words.slice(start + 1), program: programWord, wrappers, scripts, moreArgs, splitString };
    i += wrapper.operands ?? 0;
    if (wrapper.moreArgs) moreArgs = true;
  }
}

/**
 * The script a shell invocation runs from its arguments: the first operand after options when one
 * of them is `-c` (`bash -lc "…"`, `sh -e -c "…"`). Undefined when the shell reads a file or stdin.
 */
export function shellScript(args: readonly ShellWord[]): string | undefined {
  return shellScriptWord(args)?.text;
}

/** shellScript, as the word it is (so its quoting and expansions can be judged). */
export function shellScriptWord(args: readonly ShellWord[]): ShellWord | undefined {
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--") return sawC ? args[i + 1] : undefined;
    if (text === "-o" || text === "+o" || text === "-O" || text === "+O" || text === "--rcfile" || text === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(text)) {
      if (text.startsWith("-") && text.includes("c")) sawC = true;
      continue;
    }
    if (text.startsWith("--")) continue;
    return sawC ? args[i] : undefined;
  }
  return undefined;
}

/** `set -o` options that change nothing the guard relies on. */
const HARMLESS_SET_OPTIONS = new Set(["pipefail", "errexit", "nounset", "xtrace", "verbose", "noclobber", "errtrace", "functrace", "monitor", "notify", "ignoreeof", "noexec", "allexport", "hashall", "braceexpand", "history", "interactive-comments"]);

/**
 * Why a shell's own options make its script unreadable to the guard: `-O extglob` (or any `shopt`
 * option) changes how globs are read, and `-o` options other than the harmless ones (pipefail,
 * errexit, …) can too. Undefined when there are none.
 */
export function shellOptionProblem(args: readonly ShellWord[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--" || (!text.startsWith("-") && !text.startsWith("+"))) return undefined;
    if (text === "-O" || text === "+O") return `it sets the shell option ${args[i + 1]?.text ?? ""} (${text}), which changes how the script is read`;
    if ((text === "-o" || text === "+o") && !HARMLESS_SET_OPTIONS.has(args[i + 1]?.text ?? "")) {
      return `it sets the shell option ${args[i + 1]?.text ?? ""} (${text}), which can change how the script is read`;
    }
    if (text === "-o" || text === "+o" || text === "--rcfile" || text === "--init-file") i++;
  }
  return undefined;
}
