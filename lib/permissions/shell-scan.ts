/**
 * Low-level scanning for shell-parse.ts: where quoted text, substitutions and heredocs end.
 * Each function takes the index just after an opening token and never throws: an unterminated
 * construct runs to the end of the text.
 */

/** A heredoc whose body starts on the next line; the body is pushed onto `into`. */
export type PendingHeredoc = { delimiter: string; stripTabs: boolean; into: string[] };

/**
 * Index of the bracket that closes the one opened just before `from`, skipping quoted text and
 * nested substitutions; src.length when it is never closed.
 */
export function findClose(src: string, from: number, open: string, close: string): number {
  let depth = 1;
  let i = from;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === "'") i = endOf(src.indexOf("'", i + 1), src) + 1;
    else if (c === '"') i = skipDoubleQuoted(src, i + 1);
    else if (c === "`") i = findBacktick(src, i + 1) + 1;
    else {
      if (c === open) depth++;
      else if (c === close && --depth === 0) return i;
      i++;
    }
  }
  return src.length;
}

function skipDoubleQuoted(src: string, from: number): number {
  let i = from;
  while (i < src.length && src[i] !== '"') {
    if (src[i] === "\\") i += 2;
    else if (src.startsWith("$(", i)) i = findClose(src, i + 2, "(", ")") + 1;
    else if (src[i] === "`") i = findBacktick(src, i + 1) + 1;
    else i++;
  }
  return i + 1;
}

export function findBacktick(src: string, from: number): number {
  let i = from;
  while (i < src.length && src[i] !== "`") i += src[i] === "\\" ? 2 : 1;
  return Math.min(i, src.length);
}

export function findAnsiQuoteEnd(src: string, from: number): number {
  let i = from;
  while (i < src.length && src[i] !== "'") i += src[i] === "\\" ? 2 : 1;
  return Math.min(i, src.length);
}

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

export function unescapeAnsi(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, esc: string) => {
    if (esc.startsWith("x")) return String.fromCharCode(parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    return ANSI_ESCAPES[esc] ?? esc;
  });
}

function endOf(index: number, src: string): number {
  return index === -1 ? src.length : index;
}

/** Reads one heredoc body starting at `from` (the line after its command); returns where parsing resumes. */
export function readHeredoc(src: string, from: number, heredoc: PendingHeredoc): number {
  let body = "";
  let at = from;
  while (at < src.length) {
    const newline = src.indexOf("\n", at);
    const lineEnd = newline === -1 ? src.length : newline;
    const line = src.slice(at, lineEnd);
    at = newline === -1 ? src.length : newline + 1;
    if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) break;
    body += line + "\n";
  }
  heredoc.into.push(body);
  return at;
}
