import type { ShellWord } from "./shell-parse.ts";

/** A simple command with wrappers peeled off: `sudo env X=1 /bin/rm -rf /` → `rm` with `-rf /`. */
export type Invocation = { name: string; args: ShellWord[] };

/** Reserved words that may start a command; the command proper follows them. */
const KEYWORDS = new Set(["!", "{", "}", "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "esac"]);

/** Shells that run a script given with -c, on stdin or in a heredoc. */
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash"]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * Options of each wrapper that take a separate argument. A wrapper runs the command that follows
 * its options; peeling it makes `sudo rm -rf /` look like `rm -rf /` to the guard.
 */
const WRAPPERS: Record<string, { argOptions: string[]; operands?: number }> = {
  sudo: { argOptions: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R"] },
  doas: { argOptions: ["-u", "-C"] },
  env: { argOptions: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string"] },
  command: { argOptions: [] },
  builtin: { argOptions: [] },
  exec: { argOptions: ["-a"] },
  nohup: { argOptions: [] },
  time: { argOptions: ["-f", "-o", "--format", "--output"] },
  nice: { argOptions: ["-n", "--adjustment"] },
  ionice: { argOptions: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  timeout: { argOptions: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  stdbuf: { argOptions: ["-i", "-o", "-e"] },
  busybox: { argOptions: [] },
  chronic: { argOptions: [] },
  unbuffer: { argOptions: [] },
};

/** The program a word names: `/usr/bin/rm` and `\rm` both name `rm`. */
export function programName(text: string): string {
  const base = text.replace(/\/+$/, "").split("/").pop();
  return base || text;
}

/**
 * Peels keywords, variable assignments and wrappers (sudo, env, command, exec, nohup, time, nice,
 * timeout, …) off a simple command. Undefined when nothing is left to run (`X=1`, `command -v rm`).
 */
export function unwrapCommand(words: readonly ShellWord[]): Invocation | undefined {
  let i = 0;
  for (;;) {
    while (i < words.length && (KEYWORDS.has(words[i]!.text) || ASSIGNMENT.test(words[i]!.text))) i++;
    if (i >= words.length) return undefined;
    const name = programName(words[i]!.text);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!wrapper) return { name, args: words.slice(i + 1) };
    if (name === "command" && /^-[a-zA-Z]*[vV]/.test(words[i + 1]?.text ?? "")) return undefined; // a lookup, runs nothing
    i++;
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
      if (!text.startsWith("-") || text === "-") {
        if (text === "-" && name === "env") {
          i++;
          continue;
        }
        break;
      }
      i += wrapper.argOptions.includes(text) ? 2 : 1;
    }
    i += wrapper.operands ?? 0;
  }
}

/**
 * The script a shell invocation runs from its arguments: the first operand after options when one
 * of them is `-c` (`bash -lc "…"`, `sh -e -c "…"`). Undefined when the shell reads a file or stdin.
 */
export function shellScript(args: readonly ShellWord[]): string | undefined {
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--") return sawC ? args[i + 1]?.text : undefined;
    if (text === "-o" || text === "+o" || text === "--rcfile" || text === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(text)) {
      if (text.startsWith("-") && text.includes("c")) sawC = true;
      continue;
    }
    if (text.startsWith("--")) continue;
    return sawC ? text : undefined;
  }
  return undefined;
}
