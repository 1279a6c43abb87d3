import { layoutInput, scrollInput } from "./input-layout.ts";

/**
 * What sits below the output while the loop waits for keys: status rows, the input with its
 * prompt, and rows under it (completion candidates). Redrawn whole on every change.
 */
export type LiveView = {
  above: string[];
  prompt: string;
  /** The prompt as drawn (coloured); same width as `prompt`. */
  paintedPrompt?: string;
  text: string;
  cursor: number;
  below: string[];
};

/**
 * - rich: a terminal; the live view is redrawn in place with cursor movement (with NO_COLOR too:
 *   that turns colour off, not cursor movement).
 * - plain: a terminal that cannot move the cursor (TERM=dumb): not one escape code; the live view
 *   is the input on a single row, redrawn with carriage return, spaces and backspaces, and shown
 *   only while the output stands at the start of a line.
 * - pipe: stdout is not a terminal: output only, the input is never echoed.
 */
export type ScreenMode = "rich" | "plain" | "pipe";

export type Screen = {
  readonly mode: ScreenMode;
  /** Output that stays (the transcript). May end mid-line: streamed text continues it. */
  write(text: string): void;
  /** Ends the current output line if something is on it. */
  endLine(): void;
  /** Replaces the live view (undefined hides it). */
  setLive(view: LiveView | undefined): void;
  /** ctrl-l: wipe the terminal and redraw the live view at the top (rich only). */
  clear(): void;
  columns(): number;
  /** Rows of the terminal (at least 6), for commands that page their output. */
  rows?(): number;
  /** Writes to the terminal as it is, around the live view (the built-in pager's own screen; rich only). */
  raw?(text: string): void;
};

type Out = { write(text: string): unknown; columns?: number; rows?: number };

export function createScreen(out: Out, mode: ScreenMode): Screen {
  const cols = () => Math.max(out.columns ?? 80, 20);
  const termRows = () => Math.max(out.rows ?? 24, 6);
  let partialWidth = 0; // display width of the output since its last newline
  let view: LiveView | undefined;
  // What is on the screen now (rich): rows below the output, where the cursor is among them, and
  // the width they were drawn at, with the display width of each row above the cursor's.
  let drawn: { cursorRow: number; cursorCol: number; brokeLine: boolean; partialCol: number; width: number; widths: number[] } | undefined;
  let plainWidth = 0; // plain: width of the input row on screen, 0 when none
  let lastKey: string | undefined; // the view last drawn, to skip redrawing the same thing

  const erase = (): string => {
    if (mode === "rich") {
      if (!drawn) return "";
      const { up, partialCol } = drawnSince(drawn, cols(), partialWidth);
      let s = (up > 0 ? `\x1b[${up}A` : "") + "\r\x1b[J";
      if (drawn.brokeLine) s += "\x1b[A" + (partialCol > 0 ? `\x1b[${partialCol}C` : "");
      drawn = undefined;
      return s;
    }
    if (mode === "plain" && plainWidth > 0) {
      const s = "\r" + " ".repeat(plainWidth) + "\r";
      plainWidth = 0;
      return s;
    }
    return "";
  };

  const draw = (): string => {
    if (!view || mode === "pipe") return "";
    const width = cols();
    if (mode === "plain") {
      // Without escape codes there is no way back up to a half-written output line, so the input
      // waits for the output to reach the end of its line (keys typed meanwhile are kept).
      if (partialWidth > 0) return "";
      const { row, cursorCol } = scrollInput(view.prompt, view.text, view.cursor, width);
      plainWidth = Bun.stringWidth(row);
      return row + "\b".repeat(Math.max(plainWidth - cursorCol, 0));
    }
    const input = layoutInput(view.prompt, view.text, view.cursor, width);
    if (view.paintedPrompt && input.rows[0]?.startsWith(view.prompt)) {
      input.rows[0] = view.paintedPrompt + input.rows[0].slice(view.prompt.length);
    }
    const fit = (row: string) => (Bun.stringWidth(row) > width - 1 ? Bun.sliceAnsi(row, 0, width - 1, { ellipsis: "…" }) : row);
    const budget = termRows() - 1;
    const above = view.above.map(fit).slice(-Math.max(budget - 1, 0));
    const below = view.below.map(fit).slice(0, Math.max(budget - above.length - 1, 0));
    // A tall input shows the rows around the cursor.
    const inputBudget = Math.max(budget - above.length - below.length, 1);
    const first = Math.max(0, Math.min(input.cursorRow - inputBudget + 1, input.rows.length - inputBudget));
    const inputRows = input.rows.slice(first, first + inputBudget);
    const rows = [...above, ...inputRows, ...below];
    const cursorRow = above.length + input.cursorRow - first;
    const partialCol = partialWidth % width;
    const brokeLine = partialCol !== 0;
    let s = (brokeLine ? "\n" : "") + rows.join("\n");
    const up = rows.length - 1 - cursorRow;
    s += (up > 0 ? `\x1b[${up}A` : "") + "\r" + (input.cursorCol > 0 ? `\x1b[${input.cursorCol}C` : "");
    drawn = { cursorRow, cursorCol: input.cursorCol, brokeLine, partialCol, width, widths: rows.slice(0, cursorRow).map((row) => Bun.stringWidth(row)) };
    return s;
  };

  const track = (text: string) => {
    const last = text.lastIndexOf("\n");
    partialWidth = last === -1 ? partialWidth + Bun.stringWidth(text) : Bun.stringWidth(text.slice(last + 1));
  };

  return {
    mode,
    write(text) {
      if (!text) return;
      const before = erase();
      track(text);
      out.write(before + text + draw());
    },
    endLine() {
      if (partialWidth > 0) this.write("\n");
    },
    setLive(next) {
      const key = next && JSON.stringify(next);
      if (key === lastKey && (drawn || plainWidth > 0 || !next)) return; // nothing changed
      lastKey = key;
      const before = erase();
      view = next;
      const after = draw();
      if (before || after) out.write(before + after);
    },
    clear() {
      if (mode !== "rich") return;
      erase();
      partialWidth = 0;
      out.write("\x1b[2J\x1b[H" + draw());
    },
    columns: cols,
    rows: termRows,
    raw: (text) => void out.write(text),
  };
}

/**
 * How far the cursor is below the live area's first row now, and the column where the output's
 * unfinished line ends. At the width it was drawn at, that is where it was drawn. After a resize
 * the terminal has rewrapped what is on it (tmux, VTE, kitty, iTerm2, Windows Terminal do; each
 * row shiro drew ends with a newline, so each rewraps on its own): a row `w` wide now takes
 * ceil(w / cols) rows, and the cursor moved down to the row its column fell on. Counting at the
 * new width erases every row the old live area now takes. (A terminal that does not rewrap, such
 * as xterm, leaves the rows as they were: there this goes up past them, and the few output rows
 * just above the live area are erased with it.)
 */
function drawnSince(drawn: { cursorRow: number; cursorCol: number; partialCol: number; width: number; widths: number[] }, cols: number, partialWidth: number): { up: number; partialCol: number } {
  if (cols === drawn.width) return { up: drawn.cursorRow, partialCol: drawn.partialCol };
  const rowsOf = (width: number) => Math.max(1, Math.ceil(width / cols));
  const up = drawn.widths.reduce((sum, width) => sum + rowsOf(width), 0) + Math.floor(drawn.cursorCol / cols);
  return { up, partialCol: partialWidth % cols };
}
