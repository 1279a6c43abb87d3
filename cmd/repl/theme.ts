import { createColors } from "picocolors";
import type { StatusTone } from "../../lib/prompt/status-line.ts";

/** The loop's colours by meaning. With colour off every function returns its input unchanged. */
export type Theme = ReturnType<typeof createTheme>;

/**
 * Colour is on only for a terminal on stdout and no NO_COLOR (https://no-color.org: any
 * non-empty value). Off means off: not one escape code is written anywhere.
 */
export function colorEnabled(env: Record<string, string | undefined>, stdoutIsTTY: boolean): boolean {
  return stdoutIsTTY && !env.NO_COLOR;
}

export function createTheme(enabled: boolean) {
  const c = createColors(enabled);
  const amber = (text: string) => (enabled ? `\x1b[38;5;214m${text}\x1b[39m` : text);
  return {
    enabled,
    dim: c.dim,
    bold: c.bold,
    prompt: (text: string) => c.bold(c.cyan(text)),
    user: c.bold,
    toolName: (text: string) => c.bold(c.cyan(text)),
    ok: c.green,
    error: c.red,
    warn: c.yellow,
    added: c.green,
    removed: c.red,
    hunk: c.cyan,
    amber,
    tone(tone: StatusTone, text: string): string {
      switch (tone) {
        case "dim":
          return c.dim(text);
        case "normal":
          return text;
        case "amber":
          return amber(text);
        case "red":
          return c.red(text);
        default:
          return tone satisfies never;
      }
    },
  };
}
