import { wrapLine } from "../../lib/text/wrap.ts";
import type { Key } from "./input/keys.ts";

/** The terminal's other screen, as full-screen programs use it: what was on the loop's screen comes back whole when it closes. */
export const ALT_SCREEN_ON = "\x1b[?1049h\x1b[?25l";
export const ALT_SCREEN_OFF = "\x1b[?25h\x1b[?1049l";

export type Pager = {
  /** A key while the pager is open; it closes itself (calls `close`) on q or esc. */
  key(key: Key): void;
  /** Draws the page again (after a resize). */
  draw(): void;
  /** Closes it (the loop is leaving). */
  close(): void;
};

export type PagerDeps = {
  /** What is paged, as lines (wrapped to the width here). */
  lines: readonly string[];
  title: string;
  columns: () => number;
  rows: () => number;
  /** Writes to the terminal as it is (escape codes and all). */
  write: (text: string) => void;
  /** The user closed it. */
  close: () => void;
};

/**
 * shiro's own pager, for when `$PAGER` is not set: a screenful at a time on the terminal's other
 * screen. Keys: space, f, page down: the next page; b, page up: the one before; down, j, enter and
 * up, k: a line; d and u: half a page; g, home and G, end: the start and the end; `/` then a text
 * and enter: search (case-insensitive) from the top of the page on; n and N: the next and the
 * one before; q or esc: back to the loop. The last row says where you are and these keys, fitted
 * to the width (50 columns too).
 */
export function createPager(deps: PagerDeps): Pager {
  let top = 0;
  let wrappedAt = -1;
  /** The lines wrapped to the width, and the line each row belongs to. */
  let rows: string[] = [];
  let lineOfRow: number[] = [];
  /** The search being typed after `/`, while it is. */
  let typing: string | undefined;
  let term = "";
  let message = "";
  /** The row of the match shown last (-1: none yet). */
  let found = -1;

  const height = () => Math.max(deps.rows() - 1, 1);
  const layout = () => {
    const width = Math.max(deps.columns() - 1, 10);
    if (width === wrappedAt) return;
    // The first line shown stays in view across a rewrap.
    const first = rows.length > 0 ? lineOfRow[top] : 0;
    rows = [];
    lineOfRow = [];
    deps.lines.forEach((line, i) => {
      for (const row of line === "" ? [""] : wrapLine(line, width)) {
        rows.push(row);
        lineOfRow.push(i);
      }
    });
    wrappedAt = width;
    top = Math.max(0, lineOfRow.indexOf(first ?? 0));
  };
  const lastTop = () => Math.max(0, rows.length - height());
  const go = (to: number) => (top = Math.min(Math.max(0, to), lastTop()));

  const find = (from: number, step: 1 | -1): void => {
    const wanted = term.toLowerCase();
    for (let i = from; i >= 0 && i < rows.length; i += step) {
      if (rows[i]!.toLowerCase().includes(wanted)) {
        message = "";
        found = i;
        return void (top = i); // drawn on the first row, or as near it as the end allows
      }
    }
    message = `not found: ${term}`;
  };

  const highlight = (row: string): string => {
    if (!term) return row;
    const lower = row.toLowerCase();
    const wanted = term.toLowerCase();
    let out = "";
    let at = 0;
    for (let i = lower.indexOf(wanted); i >= 0; i = lower.indexOf(wanted, at)) {
      out += row.slice(at, i) + "\x1b[7m" + row.slice(i, i + term.length) + "\x1b[27m";
      at = i + term.length;
    }
    return out + row.slice(at);
  };

  const status = (): string => {
    const width = Math.max(deps.columns() - 1, 10);
    if (typing !== undefined) return fit(`/${typing}`, width);
    const last = Math.min(top + height(), rows.length);
    const where = `${rows.length === 0 ? 0 : top + 1}-${last} of ${rows.length}${last >= rows.length ? " (end)" : ""}`;
    // A message (`not found: …`) goes first, in place of the title; the keys while there is room.
    const head = message ? `${message} · ${where}` : `${deps.title} · ${where}`;
    const keys = " · / search · n/N · q quit";
    return fit(Bun.stringWidth(head + keys) <= width ? head + keys : head, width);
  };

  const draw = () => {
    layout();
    go(top);
    const page = rows.slice(top, top + height());
    while (page.length < height()) page.push("~");
    const text = "\x1b[H\x1b[2J" + page.map(highlight).join("\r\n") + "\r\n\x1b[7m" + status() + "\x1b[27m";
    deps.write(text);
  };

  const key = (k: Key): void => {
    if (typing !== undefined) {
      if (k.name === "enter") {
        if (typing) term = typing;
        typing = undefined;
        found = -1;
        if (term) find(top, 1);
      } else if (k.name === "escape" || k.name === "ctrl-c") typing = undefined;
      else if (k.name === "backspace") typing = typing.slice(0, -1);
      else if (k.name === "text" || k.name === "paste") typing += k.text.replace(/\s+/g, " ");
      return draw();
    }
    // Keys typed fast come as one piece of text: each is its own command.
    if (k.name === "text" && [...k.text].length > 1) return void [...k.text].forEach((ch) => key({ name: "text", text: ch }));
    const typed = k.name === "text" ? k.text : "";
    message = "";
    if (typed === "q" || typed === "Q" || k.name === "escape" || k.name === "ctrl-c" || k.name === "ctrl-o") return deps.close();
    if (typed === "/") typing = "";
    else if (typed === " " || typed === "f" || k.name === "page-down") go(top + height());
    else if (typed === "b" || k.name === "page-up") go(top - height());
    else if (typed === "j" || k.name === "down" || k.name === "enter") go(top + 1);
    else if (typed === "k" || k.name === "up") go(top - 1);
    else if (typed === "d" || k.name === "ctrl-d") go(top + Math.ceil(height() / 2));
    else if (typed === "u") go(top - Math.ceil(height() / 2));
    else if (typed === "g" || k.name === "home") go(0);
    else if (typed === "G" || k.name === "end") go(lastTop());
    else if (typed === "n" && term) find(found >= 0 ? found + 1 : top, 1);
    else if (typed === "N" && term) find((found >= 0 ? found : top) - 1, -1);
    draw();
  };

  return { key, draw, close: deps.close };
}

/** A row cut to `width` columns. */
function fit(row: string, width: number): string {
  return Bun.stringWidth(row) > width ? Bun.sliceAnsi(row, 0, width - 1) + "…" : row;
}
