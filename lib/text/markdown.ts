import { highlightCode, type TokenStyle } from "./highlight.ts";
import { continuesTable, delimiterAligns, looksLikeRow, renderTable, splitRow, type Table, type TableStyle } from "./markdown-table.ts";
import { DIFF_CONTINUED, wrapCode, wrapHanging } from "./wrap.ts";

/**
 * How rendered Markdown looks: one function per element, supplied by the terminal edge (colours
 * there, or none). With `color` false the renderer keeps the marks that carry meaning without
 * colour (the backticks of inline code), and drops the ones that are only emphasis.
 */
export type MarkdownStyle = {
  color: boolean;
  heading(text: string, level: number): string;
  bold(text: string): string;
  italic(text: string): string;
  strike(text: string): string;
  /** Inline code, without its backticks. */
  code(text: string): string;
  /** A link's text; its address follows in `url`. */
  link(text: string): string;
  url(text: string): string;
  /** The bar before quoted lines, the bullet of a list, a horizontal rule, the bar before code lines. */
  quote(text: string): string;
  bullet(text: string): string;
  rule(text: string): string;
  gutter(text: string): string;
  /** Colours a token of highlighted code. */
  token: TokenStyle;
};

export type MarkdownStream = {
  /** Adds streamed text; returns the rows of every line it completed, ready to print. */
  push(text: string): string[];
  /** The line still being written, rendered as if it ended now (for a live view); [] when none. */
  pending(): string[];
  /** The text is over: the line in progress is finished and an open fence closed. Returns the rows left. */
  end(): string[];
  /**
   * Whether a table (or a line that may start one, or a row still being written) is waiting to be
   * drawn whole: ending the text now would draw it before it is complete.
   */
  holding(): boolean;
};

type Fence = { char: string; length: number; lang: string; lines: string[] };

/** Rows of a table still streaming that the live view draws (see `waiting`). */
const LIVE_TABLE_ROWS = 40;
/** Lines of an open code block highlighted together with the line being added (for multi-line strings and comments). */
const HIGHLIGHT_CONTEXT_LINES = 200;
const CODE_FIRST = "  │ ";
/** Where a code line wrapped: the rows it goes on in, so they cannot be read as lines of their own. */
const CODE_CONTINUED = `  ${DIFF_CONTINUED} `;

/**
 * Markdown rendered line by line as it streams: a line is rendered once it is complete (or when
 * `pending` asks how it looks so far), never re-rendered after it is printed. Headings, bold,
 * italic, strike-through, inline code, links, block quotes, bullet and numbered lists, rules,
 * tables and fenced code (highlighted when the fence names a known language) are drawn; anything
 * else is shown as written. An unclosed fence renders as code while it grows. Every row fits
 * `width()` columns (read per line, so output after a resize uses the new width).
 *
 * A table is drawn once it is complete, since its columns' widths depend on every row: a line
 * with a `|` waits for the next one (a delimiter row makes it a table's header; anything else
 * lets it through as written), and a table's rows wait for the first line that is not one. Until
 * then `pending` shows them, the table drawn as far as it goes. A table indented under a list item
 * keeps its header line's indent on every row, as the item's other lines do.
 */
export function createMarkdownStream(style: MarkdownStyle, width: () => number): MarkdownStream {
  let buffer = "";
  let fence: Fence | undefined;
  /** A line that may be a table's header, until the next line says. */
  let held: string | undefined;
  let table: Table | undefined;
  /** The indent of the table's header line (a table under a list item): every row of the table starts with it. */
  let tableIndent = "";
  const tableStyle: TableStyle = { inline: (text) => inline(text, style), header: (text) => style.bold(text), rule: (text) => style.rule(text) };
  const cols = () => Math.max(width(), 20);

  /**
   * What is waiting (the held line, the table so far), drawn; with `take`, no longer waiting. The
   * live view (`take` false) draws a long table's header and last LIVE_TABLE_ROWS rows only: it is
   * drawn again at every streamed piece, and the live area shows its bottom anyway.
   */
  const waiting = (take: boolean, extraRow?: string): string[] => {
    const body = table ? [...table.rows, ...(extraRow === undefined ? [] : [splitRow(extraRow)])] : [];
    const rows = table
      ? renderTable({ ...table, rows: take ? body : body.slice(-LIVE_TABLE_ROWS) }, tableStyle, cols() - tableIndent.length).map((row) => tableIndent + row)
      : held !== undefined
        ? blockRows(held, style, cols())
        : [];
    if (take) [held, table] = [undefined, undefined];
    return rows;
  };

  /** A complete line: a table's lines are held (see above), the rest rendered by `line`. */
  const commitLine = (raw: string): string[] => {
    if (!fence && table) {
      if (continuesTable(raw)) return (table.rows.push(splitRow(raw)), []);
      return [...waiting(true), ...commitLine(raw)];
    }
    if (!fence && held !== undefined) {
      const aligns = delimiterAligns(raw);
      const header = splitRow(held);
      if (aligns && aligns.length === header.length) return ((table = { header, aligns, rows: [] }), (tableIndent = leadOf(held)), (held = undefined), []);
      return [...waiting(true), ...commitLine(raw)];
    }
    if (!fence && looksLikeRow(raw) && delimiterAligns(raw) === undefined) return ((held = raw), []);
    return line(raw, true);
  };

  /** The line in progress, after what is waiting. */
  const preview = (raw: string | undefined): string[] => {
    if (raw === undefined) return waiting(false);
    if (!fence && table && continuesTable(raw)) return waiting(false, raw);
    return [...waiting(false), ...line(raw, false)];
  };

  const line = (raw: string, commit: boolean): string[] => {
    const cols = Math.max(width(), 20);
    if (fence) {
      if (closes(fence, raw)) {
        if (commit) fence = undefined;
        return [];
      }
      const lines = [...fence.lines.slice(-HIGHLIGHT_CONTEXT_LINES), raw];
      if (commit) fence.lines.push(raw);
      return codeRows(lines, fence.lang, style, cols);
    }
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(raw);
    if (open) {
      if (commit) fence = { char: open[1]![0]!, length: open[1]!.length, lang: open[2] ?? "", lines: [] };
      return [];
    }
    return blockRows(raw, style, cols);
  };

  return {
    push(text) {
      buffer += text;
      const rows: string[] = [];
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        rows.push(...commitLine(buffer.slice(0, newline).trimEnd()));
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
      return rows;
    },
    pending: () => preview(buffer === "" ? undefined : buffer.trimEnd()),
    holding: () => !fence && (table !== undefined || held !== undefined || (buffer !== "" && looksLikeRow(buffer))),
    end() {
      const rows = [...(buffer === "" ? [] : commitLine(buffer.trimEnd())), ...waiting(true)];
      buffer = "";
      fence = undefined;
      return rows;
    },
  };
}

/** A style that draws nothing: for asking a stream what it holds, not for showing it. */
const UNSTYLED: MarkdownStyle = {
  color: false,
  heading: (text) => text,
  bold: (text) => text,
  italic: (text) => text,
  strike: (text) => text,
  code: (text) => text,
  link: (text) => text,
  url: (text) => text,
  quote: (text) => text,
  bullet: (text) => text,
  rule: (text) => text,
  gutter: (text) => text,
  token: (_kind, text) => text,
};

/**
 * Whether the live screen, having streamed `text`, would still be holding it (MarkdownStream
 * `holding`: a table not yet drawn, or a line that may start one), so that text coming after
 * reasoning continues it where it stopped, even in the middle of a row. Pure.
 */
export function holdsAfter(text: string): boolean {
  const stream = createMarkdownStream(UNSTYLED, () => 80);
  stream.push(text);
  return stream.holding();
}

/** A whole Markdown text rendered at once (a replayed answer); no trailing blank rows. */
export function renderMarkdown(text: string, style: MarkdownStyle, width: number): string[] {
  const stream = createMarkdownStream(style, () => width);
  const rows = [...stream.push(text.trimEnd() + "\n"), ...stream.end()];
  while (rows.length > 0 && rows.at(-1) === "") rows.pop();
  return rows;
}

function closes(fence: Fence, raw: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(raw);
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

/** The last of `lines` as code rows: highlighted in the context of the ones before it. */
function codeRows(lines: readonly string[], lang: string, style: MarkdownStyle, cols: number): string[] {
  const last = lines.at(-1)!;
  const shown = (style.color ? highlightCode(lines.join("\n"), lang, style.token)?.at(-1) : undefined) ?? last;
  return wrapCode(style.gutter(CODE_FIRST), style.gutter(CODE_CONTINUED), shown, cols);
}

/**
 * Stands for a space inside inline code while a line is wrapped: the span is then one word, moved
 * whole to the next row rather than split (a split `` `npm run` `` / `` `build` `` reads like two
 * things, and a row starting with the rest of a span like `- x` reads like a list item). Only a
 * span longer than a row is cut. A private-use character, one column wide, never in the text.
 */
const GLUE = "\uE000";

/** Rows with the glued spaces of inline code spaces again. */
function unglued(rows: string[]): string[] {
  return rows.map((row) => (row.includes(GLUE) ? row.replaceAll(GLUE, " ") : row));
}

/** One line outside code and tables: a heading, rule, quote, list item, blank or paragraph line. */
function blockRows(raw: string, style: MarkdownStyle, cols: number): string[] {
  return unglued(blockRowsGlued(raw, style, cols));
}

function blockRowsGlued(raw: string, style: MarkdownStyle, cols: number): string[] {
  if (raw.trim() === "") return [""];
  const heading = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(raw);
  if (heading) return wrapHanging("", "", style.heading(inline(heading[2]!, style, true), heading[1]!.length), cols);
  if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(raw)) return [style.rule("─".repeat(Math.min(cols, 40)))];
  const quote = /^ {0,3}>\s?(.*)$/.exec(raw);
  if (quote) {
    const bar = style.quote("│ ");
    return blockRowsGlued(quote[1]!, style, cols - 2).map((row) => bar + row);
  }
  const item = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(raw);
  if (item) {
    const indent = " ".repeat(Math.min(item[1]!.replace(/\t/g, "  ").length, 12));
    const ordered = /\d/.test(item[2]!);
    const mark = ordered ? item[2]! : indent.length >= 2 ? "◦" : "•";
    const first = indent + style.bullet(mark) + " ";
    return wrapHanging(first, " ".repeat(indent.length + Bun.stringWidth(mark) + 1), inline(item[3]!, style, true), cols);
  }
  const lead = leadOf(raw);
  return wrapHanging(lead, lead, inline(raw.trim(), style, true), cols);
}

/** A continuation line's indent as drawn (a list item's further lines and tables stay under it), at most 12 columns. */
function leadOf(raw: string): string {
  return " ".repeat(Math.min(/^\s*/.exec(raw)![0].length, 12));
}

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!~|<>]/;

/**
 * Inline Markdown: code spans, bold, italic, strike-through, links and autolinks, backslash
 * escapes. Emphasis needs a closing mark on the same line; without one the marks are text.
 * `_` emphasises only at word boundaries, so snake_case stays as written. `glue`: the spaces of a
 * code span become GLUE, so wrapping keeps the span on one row when it fits (see unglued).
 */
export function inline(src: string, style: MarkdownStyle, glue = false): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === "\\" && next !== undefined && ESCAPABLE.test(next)) {
      out += next;
      i += 2;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(src.slice(i))![0];
      const close = src.indexOf(run, i + run.length);
      if (close === -1) {
        out += run;
        i += run.length;
        continue;
      }
      let body = src.slice(i + run.length, close);
      if (/^ .* $/.test(body)) body = body.slice(1, -1);
      if (glue) body = body.replace(/ /g, GLUE);
      out += style.color ? style.code(body) : "`" + body + "`";
      i = close + run.length;
      continue;
    }
    if (c === "*" || c === "_") {
      const found = emphasis(src, i, c);
      if (found) {
        const body = inline(found.body, style, glue);
        out += found.strong ? style.bold(body) : style.italic(body);
        i = found.end;
        continue;
      }
      const run = new RegExp(`^\\${c}+`).exec(src.slice(i))![0];
      out += run;
      i += run.length;
      continue;
    }
    if (c === "~" && next === "~") {
      const close = src.indexOf("~~", i + 2);
      if (close > i + 2 && src[i + 2] !== " " && src[close - 1] !== " ") {
        out += style.strike(inline(src.slice(i + 2, close), style, glue));
        i = close + 2;
        continue;
      }
    }
    if (c === "[") {
      const link = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(src.slice(i));
      if (link) {
        const text = inline(link[1]!, style, glue);
        const url = link[2]!;
        out += Bun.stripANSI(text) === url ? style.link(text) : `${style.link(text)} ${style.url(`(${url})`)}`;
        i += link[0].length;
        continue;
      }
    }
    if (c === "<") {
      const auto = /^<((?:https?|mailto):[^>\s]+)>/.exec(src.slice(i));
      if (auto) {
        out += style.link(auto[1]!);
        i += auto[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** `**body**` or `*body*` (or with `_`) starting at `at`: the body and where the closing mark ends. */
function emphasis(src: string, at: number, mark: string): { body: string; strong: boolean; end: number } | undefined {
  const strong = src[at + 1] === mark && src[at + 2] !== mark;
  const width = strong ? 2 : 1;
  if (!strong && src[at + 1] === mark) return undefined; // three or more: leave as written
  const start = at + width;
  if (start >= src.length || /\s/.test(src[start]!)) return undefined;
  if (mark === "_" && at > 0 && /[\p{L}\p{N}]/u.test(src[at - 1]!)) return undefined;
  const closer = mark.repeat(width);
  let from = start + 1;
  for (;;) {
    const close = src.indexOf(closer, from);
    if (close === -1) return undefined;
    const before = src[close - 1]!;
    const after = src[close + width];
    const doubled = !strong && after === mark; // `*a **b** c*`: skip the inner strong mark
    if (!/\s/.test(before) && !doubled && !(mark === "_" && after !== undefined && /[\p{L}\p{N}]/u.test(after))) {
      if (close > start) return { body: src.slice(start, close), strong, end: close + width };
    }
    from = close + (doubled ? 2 : 1);
  }
}
