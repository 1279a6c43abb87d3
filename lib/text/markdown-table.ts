/**
 * Markdown (GFM) tables for the terminal: the rows split into cells, the delimiter row read for
 * each column's alignment, and the whole table drawn with aligned columns. A table narrower than
 * the screen keeps its columns' natural widths; a wider one takes columns down from the widest
 * and wraps their cells inside them. Pure.
 */

export type Align = "left" | "right" | "center";

export type Table = { header: string[]; aligns: Align[]; rows: string[][] };

/** How cells and lines look (the terminal edge gives colours, or none). */
export type TableStyle = {
  /** A cell's Markdown rendered inline (bold, code, links). */
  inline(text: string): string;
  header(text: string): string;
  rule(text: string): string;
};

/** Narrowest a column is made before the table gives up on aligning and is shown as written. */
const MIN_COLUMN = 3;
const SEP = " │ ";

/** Whether a line can be a row of a table: it starts with `|`, or has one outside code spans and escapes. */
export function looksLikeRow(raw: string): boolean {
  const line = raw.trim();
  return line.startsWith("|") || (line !== "" && splitRow(line).length > 1);
}

/**
 * Whether a line goes on with a table begun above it: a row that does not open another block. A
 * list item, quote or heading ends the table even with a `|` in it, as in GFM.
 */
export function continuesTable(raw: string): boolean {
  return looksLikeRow(raw) && !/^(?: {0,3}(?:>|#{1,6}(?:\s|$))|\s*(?:[-*+]|\d{1,9}[.)])\s)/.test(raw);
}

/**
 * The cells of a row: split at every `|` that is not escaped (`\|`) or inside a code span; the
 * pipes at the two ends are edges, not empty cells. Cells are trimmed; `\|` stays escaped, for
 * the inline renderer to unescape.
 */
export function splitRow(raw: string): string[] {
  let line = raw.trim();
  const cells: string[] = [];
  let cell = "";
  let code = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\" && i + 1 < line.length) {
      cell += c + line[i + 1];
      i++;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(line.slice(i))![0];
      if (code === "") code = run;
      else if (run === code) code = "";
      cell += run;
      i += run.length - 1;
      continue;
    }
    if (c === "|" && code === "") {
      cells.push(cell.trim());
      cell = "";
      continue;
    }
    cell += c;
  }
  cells.push(cell.trim());
  line = raw.trim();
  if (line.startsWith("|")) cells.shift();
  if (line.endsWith("|") && !line.endsWith("\\|") && cells.length > 0) cells.pop();
  return cells;
}

/** The alignments a delimiter row gives (`:--`, `--:`, `:-:`, `---`), or undefined when it is not one. */
export function delimiterAligns(raw: string): Align[] | undefined {
  const cells = splitRow(raw);
  if (cells.length === 0 || !cells.every((cell) => /^:?-+:?$/.test(cell))) return undefined;
  if (!raw.includes("|") && cells.length === 1) return undefined; // a lone `---` is a rule
  return cells.map((cell) => (cell.startsWith(":") && cell.endsWith(":") ? "center" : cell.endsWith(":") ? "right" : "left"));
}

/**
 * The table as rows of at most `cols` columns: the header, a rule under it, then the body, with
 * the columns separated by `│`. Rows shorter than the header get empty cells, longer ones lose
 * the extra cells (as GFM does). When even the narrowest columns do not fit, each row is shown
 * as written, cut to the width.
 */
export function renderTable(table: Table, style: TableStyle, cols: number): string[] {
  const n = table.header.length;
  const fit = (cells: readonly string[]) => Array.from({ length: n }, (_, i) => style.inline(cells[i] ?? ""));
  const header = fit(table.header).map((cell) => style.header(cell));
  const body = table.rows.map(fit);
  const natural = Array.from({ length: n }, (_, i) => Math.max(1, ...[header, ...body].map((row) => Bun.stringWidth(row[i]!))));
  const room = cols - Bun.stringWidth(SEP) * (n - 1);
  if (room < MIN_COLUMN * n) return [header, ...body].map((row) => Bun.sliceAnsi(row.join(" | "), 0, cols));
  const widths = shrink(natural, room);
  const line = (cells: readonly string[]) => {
    const wrapped = cells.map((cell, i) => (Bun.stringWidth(cell) <= widths[i]! ? [cell] : Bun.wrapAnsi(cell, widths[i]!, { hard: true }).split("\n")));
    const height = Math.max(...wrapped.map((w) => w.length));
    return Array.from({ length: height }, (_, r) =>
      wrapped
        .map((w, i) => pad(w[r] ?? "", widths[i]!, table.aligns[i] ?? "left"))
        .join(style.rule(SEP))
        .trimEnd(),
    );
  };
  const rule = style.rule(widths.map((w) => "─".repeat(w)).join("─┼─"));
  return [...line(header), rule, ...body.flatMap(line)];
}

/** Column widths that add up to at most `room`: the widest column gives a column at a time. */
function shrink(natural: readonly number[], room: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= MIN_COLUMN) break; // cannot happen: renderTable checked the room
    widths[widest] = widths[widest]! - 1;
    total--;
  }
  return widths;
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(width - Bun.stringWidth(text), 0);
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(gap - Math.floor(gap / 2));
  return text + " ".repeat(gap);
}
