import { fstatSync } from "node:fs";

/**
 * Text piped to shiro, read only when it can be meant as input: never from a terminal (no waiting
 * on a keyboard), and — when the prompt was given with -p — only from a shell pipe or a file
 * redirect. A socket inherited from a parent process that never writes to it (a program spawning
 * shiro with default stdio) is not read then, so it cannot hang the run.
 */
export async function readPipedStdin(promptGiven: boolean): Promise<string> {
  if (promptGiven) {
    // A terminal is neither a pipe nor a file, so this check also keeps the keyboard out. It comes
    // first because the others cost start-up: process.stdin builds a stream, node:tty loads node:net.
    try {
      const stat = fstatSync(0);
      if (!stat.isFIFO() && !stat.isFile()) return "";
    } catch {
      return "";
    }
  } else if ((await import("node:tty")).isatty(0)) return "";
  return (await Bun.stdin.text()).trim();
}
