import { createColors } from "picocolors";
import type { StatusTone } from "../../lib/prompt/status-line.ts";
import type { TokenKind } from "../../lib/text/highlight.ts";
import type { MarkdownStyle } from "../../lib/text/markdown.ts";

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
    /** An interrupted call: its own colour, neither success nor failure. */
    stopped: c.magenta,
    warn: c.yellow,
    added: c.green,
    removed: c.red,
    hunk: c.cyan,
    amber,
    markdown: markdownStyle(enabled, c),
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

type Colors = ReturnType<typeof createColors>;

/** Rendered Markdown's look: bold headings, cyan inline code, dim quote and code bars, underlined links. */
function markdownStyle(enabled: boolean, c: Colors): MarkdownStyle {
  const token: Record<TokenKind, (text: string) => string> = {
    keyword: c.magenta,
    string: c.green,
    comment: c.dim,
    number: c.yellow,
    title: c.blue,
    type: c.cyan,
    attr: c.cyan,
    meta: c.dim,
    addition: c.green,
    deletion: c.red,
  };
  return {
    color: enabled,
    // Without colour, bold and underline draw nothing: a heading keeps its marks, so it still reads as one.
    heading: (text, level) => (!enabled ? `${"#".repeat(level)} ${text}` : level <= 2 ? c.bold(c.underline(text)) : c.bold(text)),
    bold: c.bold,
    italic: c.italic,
    strike: c.strikethrough,
    code: c.cyan,
    link: c.underline,
    url: c.dim,
    quote: c.dim,
    bullet: c.dim,
    rule: c.dim,
    gutter: c.dim,
    token: (kind, text) => token[kind](text),
  };
}
