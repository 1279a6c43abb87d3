// A small terminal model for the pty tests: applies what shiro writes (text, CR/LF, backspace,
// cursor movement, erase) to a grid with unbounded scrollback, so a test can assert on what a
// person would see rather than on the byte stream, where redraws interleave with the text.
// Covers the sequences the loop uses; colours and modes are ignored, but for the other screen
// (`CSI ? 1049 h`/`l`, the built-in pager's): while it is on, the grid is a blank one of its own,
// and turning it off brings back the grid and cursor as they were.

export type Vt = {
  feed(data: string): void;
  /** Every line, scrollback included, trailing spaces and trailing blank lines removed. */
  text(): string;
  /** The line the cursor is on (the input row while the loop waits). */
  cursorLine(): string;
  /** The index, in text()'s lines, of the line the cursor is on. */
  cursorRow(): number;
  /** The column the cursor is at (0 first), in cells: a wide character takes two. */
  cursorCol(): number;
  /**
   * The terminal got narrower or wider: text from now on wraps at `cols`. Lines already there stay
   * as they are (xterm), or with `reflow` are rewrapped at the new width, the cursor keeping its
   * place in its line (tmux, VTE, kitty, iTerm2): a line the terminal wrapped itself is joined to
   * the one before it first.
   */
  resize(cols: number, opts?: { reflow?: boolean }): void;
};

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export function createVt(width: number, rows: number): Vt {
  let cols = width;
  let lines: string[][] = [[]];
  /** Which lines continue the one before them because the terminal wrapped it (not a newline). */
  let wrapped: boolean[] = [false];
  let row = 0;
  let col = 0;
  let pendingWrap = false;
  let pending = "";
  /** The normal screen, kept while the other screen is on. */
  let saved: { lines: string[][]; wrapped: boolean[]; row: number; col: number } | undefined;

  const line = (r: number): string[] => {
    while (lines.length <= r) lines.push([]);
    while (wrapped.length < lines.length) wrapped.push(false);
    return lines[r]!;
  };
  const top = () => Math.max(0, lines.length - rows);
  const newline = () => {
    row++;
    line(row);
    wrapped[row] = false;
  };
  /**
   * The cell written last, until anything but text comes: a code point that joins its cluster
   * (🏽 after 👍, the rest of 👨‍👩‍👧) goes into that cell, as a terminal that draws clusters whole does.
   * Below U+0300 nothing joins the cell before, and the segmenter is not asked.
   */
  let last: { row: number; col: number } | undefined;
  const put = (char: string) => {
    if (last && char.codePointAt(0)! >= 0x300) {
      const cells = line(last.row);
      const joined = cells[last.col]! + char;
      if (Array.from(segmenter.segment(joined)).length === 1) return void (cells[last.col] = joined);
    }
    const width = Math.max(Bun.stringWidth(char), 1);
    if (pendingWrap || col + width > cols) {
      newline();
      wrapped[row] = true;
      col = 0;
      pendingWrap = false;
    }
    const cells = line(row);
    while (cells.length < col) cells.push(" ");
    cells[col] = char;
    last = { row, col };
    if (width === 2) cells[col + 1] = "";
    col += width;
    if (col >= cols) {
      col = cols - 1;
      pendingWrap = true;
    }
  };
  const csi = (params: string, final: string) => {
    const n = params === "" ? 1 : Number(params.split(";")[0]) || 1;
    pendingWrap = false;
    switch (final) {
      case "A":
        row = Math.max(top(), row - n);
        break;
      case "B":
        row += n;
        line(row);
        break;
      case "C":
        col = Math.min(cols - 1, col + n);
        break;
      case "D":
        col = Math.max(0, col - n);
        break;
      case "G":
        col = Math.min(cols - 1, n - 1);
        break;
      case "H":
        row = top();
        col = 0;
        break;
      case "J":
        if (params === "2") {
          lines.length = top();
          wrapped.length = lines.length;
          row = top();
          line(row);
          col = 0;
        } else {
          lines.length = row + 1;
          wrapped.length = lines.length;
          line(row).length = Math.min(line(row).length, col);
        }
        break;
      case "K":
        line(row).length = Math.min(line(row).length, col);
        break;
      case "h":
        if (params === "1049" && !saved) {
          saved = { lines, wrapped, row, col };
          lines = [[]];
          wrapped = [false];
          row = col = 0;
        }
        break;
      case "l":
        if (params === "1049" && saved) {
          ({ lines, wrapped, row, col } = saved);
          saved = undefined;
        }
        break;
      default:
        break; // colours (m), other modes and the rest change nothing we assert on
    }
  };

  /** Rewraps every line at `next` columns; the cursor keeps its cell in its line. */
  const reflow = (next: number) => {
    const logical: { cells: string[]; cursor?: number }[] = [];
    lines.forEach((cells, r) => {
      if (r === 0 || !wrapped[r]) logical.push({ cells: [] });
      const current = logical.at(-1)!;
      if (r === row) current.cursor = current.cells.length + col;
      current.cells.push(...cells);
    });
    const nextLines: string[][] = [];
    const nextWrapped: boolean[] = [];
    for (const { cells, cursor } of logical) {
      while (cells.length > 0 && cells.at(-1) === " " && (cursor === undefined || cells.length > cursor)) cells.pop();
      const first = nextLines.length;
      let current: string[] = [];
      nextLines.push(current);
      nextWrapped.push(false);
      const starts: number[] = []; // where each cell of the old line landed: [row, col] as row * next + col
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i]!;
        if (cell === "") continue; // the second half of a wide character, placed with it
        const width = Math.max(Bun.stringWidth(cell), 1);
        if (current.length + width > next) {
          current = [];
          nextLines.push(current);
          nextWrapped.push(true);
        }
        starts[i] = (nextLines.length - 1 - first) * next + current.length;
        current.push(cell);
        if (width === 2) current.push("");
      }
      if (cursor !== undefined) {
        const at = starts[cursor] ?? (cells.length === 0 ? 0 : (starts[cells.length - 1] ?? 0) + 1 + (cursor - cells.length));
        while (nextLines.length - first <= Math.floor(at / next)) {
          nextLines.push([]);
          nextWrapped.push(true);
        }
        row = first + Math.floor(at / next);
        col = at % next;
      }
    }
    lines = nextLines;
    wrapped = nextWrapped;
    pendingWrap = false;
    last = undefined;
  };

  return {
    feed(data) {
      const input = pending + data;
      pending = "";
      let i = 0;
      while (i < input.length) {
        const c = input[i]!;
        if (c < " ") last = undefined; // a control or an escape: the next text starts a cell of its own
        if (c === "\x1b") {
          // OSC (a desktop notification, a title) and DCS (tmux passthrough) draw nothing: skipped whole.
          if (input[i + 1] === "]" || input[i + 1] === "P") {
            const length = input[i + 1] === "]" ? (/^\x1b\][^]*?(\x07|\x1b\\)/.exec(input.slice(i))?.[0].length ?? -1) : dcsLength(input, i);
            if (length === -1) {
              pending = input.slice(i); // cut between chunks
              break;
            }
            i += length;
            continue;
          }
          const match = /^\x1b\[([0-?]*)([ -\/]*)([@-~])/.exec(input.slice(i));
          if (!match) {
            if (input.length - i < 16) pending = input.slice(i); // a sequence cut between chunks
            break;
          }
          if (!match[2]) csi(match[1]!.replace("?", ""), match[3]!); // with intermediates ($p, a mode query): nothing drawn
          i += match[0].length;
          continue;
        }
        if (c === "\r") {
          col = 0;
          pendingWrap = false;
        } else if (c === "\n") {
          newline();
          pendingWrap = false;
        } else if (c === "\b") {
          col = Math.max(0, col - 1);
          pendingWrap = false;
        } else if (c >= " ") {
          const code = input.codePointAt(i)!;
          const char = String.fromCodePoint(code);
          put(char);
          i += char.length;
          continue;
        }
        i++;
      }
    },
    text() {
      const out = lines.map((cells) => cells.join("").replace(/\s+$/, ""));
      while (out.length > 0 && out.at(-1) === "") out.pop();
      return out.join("\n");
    },
    cursorLine() {
      return line(row).join("").replace(/\s+$/, "");
    },
    cursorRow: () => row,
    cursorCol: () => col,
    resize(next, opts = {}) {
      if (opts.reflow && next !== cols) reflow(next);
      cols = next;
      col = Math.min(col, cols - 1);
    },
  };
}

/** Length of the DCS at `at` up to its ST (ESC \\), -1 when it has not all come; inside, a doubled ESC is one escaped ESC (tmux passthrough). */
function dcsLength(input: string, at: number): number {
  let j = at + 2;
  while (j < input.length) {
    if (input[j] === "\x1b" && input[j + 1] === "\x1b") j += 2;
    else if (input[j] === "\x1b" && input[j + 1] === "\\") return j + 2 - at;
    else j++;
  }
  return -1;
}
