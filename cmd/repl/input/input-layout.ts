import { graphemes, nextBoundary } from "../../../lib/text/graphemes.ts";

/**
 * Where the input's rows and the cursor land on a screen `cols` wide. `spans[i]` is the part of
 * the text row `i` shows: from `start` to `end` (indices into the text), its first character at
 * screen column `col`.
 */
export type InputLayout = { rows: string[]; cursorRow: number; cursorCol: number; spans: RowSpan[] };
export type RowSpan = { start: number; end: number; col: number };

/**
 * Lays out the prompt and the input text as terminal rows, wrapping by display width ourselves so
 * the screen always knows how many rows it drew. Lines after the first are indented under the
 * prompt. The cursor never sits past the last column: at the end of a full row it moves to the
 * start of the next. A visible character made of several code points (`👍🏽`) is measured whole. Pure.
 */
export function layoutInput(prompt: string, text: string, cursor: number, cols: number): InputLayout {
  const width = Math.max(cols, 4);
  const indent = " ".repeat(Bun.stringWidth(prompt));
  const rows: string[] = [];
  const spans: RowSpan[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  text.split("\n").forEach((line, index) => {
    let row = index === 0 ? prompt : indent;
    let rowWidth = Bun.stringWidth(row);
    let span = { start: offset, col: rowWidth };
    const wrap = (at: number) => {
      rows.push(row);
      spans.push({ ...span, end: at });
      row = "";
      rowWidth = 0;
      span = { start: at, col: 0 };
    };
    const place = (at: number) => {
      if (rowWidth >= width) wrap(at);
      cursorRow = rows.length;
      cursorCol = rowWidth;
    };
    let at = offset;
    for (const char of graphemes(line)) {
      if (at === cursor || (at < cursor && cursor < at + char.length)) place(at); // (never inside one, but if so: before it)
      const w = Bun.stringWidth(char);
      if (rowWidth + w > width) wrap(at);
      row += char;
      rowWidth += w;
      at += char.length;
    }
    if (at === cursor) place(at);
    rows.push(row);
    spans.push({ ...span, end: at });
    offset = at + 1;
  });
  return { rows, cursorRow, cursorCol, spans };
}

/**
 * Up or Down in the input as laid out: the cursor goes to the row above or under it, whether the
 * row is another line of the text or the same line wrapped, at the screen column it is at, or the
 * nearest one before it (a wide character is never split). Undefined on the first row (up) or
 * the last (down): there the keys walk the history. Pure.
 */
export function moveRow(prompt: string, text: string, cursor: number, cols: number, direction: "up" | "down"): number | undefined {
  const layout = layoutInput(prompt, text, cursor, cols);
  const span = layout.spans[layout.cursorRow + (direction === "up" ? -1 : 1)];
  if (!span) return undefined;
  let at = span.start;
  let col = span.col;
  while (at < span.end) {
    const next = nextBoundary(text, at);
    const w = Bun.stringWidth(text.slice(at, next));
    if (col + w > layout.cursorCol) break;
    col += w;
    at = next;
  }
  // (The cursor is never past a row's last column, so this never ends at the end of a full row,
  // which is drawn at the start of the next.)
  return at;
}

/**
 * The input on a single row for terminals drawn without escape codes: newlines shown as "↵",
 * and the text scrolled sideways so the cursor stays in view. Pure.
 */
export function scrollInput(prompt: string, text: string, cursor: number, cols: number): { row: string; cursorCol: number } {
  const available = Math.max(cols - 1 - Bun.stringWidth(prompt), 8);
  const chars = graphemes(text.replace(/\n/g, "↵"));
  const widths = chars.map((c) => Bun.stringWidth(c));
  let cursorIndex = graphemes(text.slice(0, cursor)).length;
  let start = 0;
  let before = widths.slice(0, cursorIndex).reduce((a, b) => a + b, 0);
  while (before >= available && start < cursorIndex) before -= widths[start++]!;
  let shown = "";
  let used = 0;
  for (let i = start; i < chars.length && used + widths[i]! <= available; i++) {
    shown += chars[i];
    used += widths[i]!;
  }
  cursorIndex -= start;
  const cursorCol = Bun.stringWidth(prompt) + widths.slice(start, start + cursorIndex).reduce((a, b) => a + b, 0);
  return { row: prompt + shown, cursorCol };
}
