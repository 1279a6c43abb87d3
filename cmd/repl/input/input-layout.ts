import { graphemes } from "../../../lib/text/graphemes.ts";

/** Where the input's rows and the cursor land on a screen `cols` wide. */
export type InputLayout = { rows: string[]; cursorRow: number; cursorCol: number };

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
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  text.split("\n").forEach((line, index) => {
    let row = index === 0 ? prompt : indent;
    let rowWidth = Bun.stringWidth(row);
    const place = () => {
      if (rowWidth >= width) {
        rows.push(row);
        row = "";
        rowWidth = 0;
      }
      cursorRow = rows.length;
      cursorCol = rowWidth;
    };
    let at = offset;
    for (const char of graphemes(line)) {
      if (at === cursor || (at < cursor && cursor < at + char.length)) place(); // (never inside one, but if so: before it)
      const w = Bun.stringWidth(char);
      if (rowWidth + w > width) {
        rows.push(row);
        row = "";
        rowWidth = 0;
      }
      row += char;
      rowWidth += w;
      at += char.length;
    }
    if (at === cursor) place();
    rows.push(row);
    offset = at + 1;
  });
  return { rows, cursorRow, cursorCol };
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
