import { nextBoundary, prevBoundary, snapToBoundary } from "../../../lib/text/graphemes.ts";
import type { Key } from "./keys.ts";

/**
 * The input line: its text (may hold newlines) and the cursor as an index into it. The cursor
 * moves, and backspace and delete remove, a whole visible character (a grapheme cluster, such as
 * `👍🏽` or `👨‍👩‍👧`), never a piece of one.
 */
export type LineState = { readonly text: string; readonly cursor: number };

export const EMPTY_LINE: LineState = { text: "", cursor: 0 };

/**
 * Applies an editing key (typing, deleting, moving). Pure. Returns undefined for keys that are
 * not editing keys (enter, tab, escape, up/down, ctrl-c…), which the loop handles itself.
 */
export function editLine(state: LineState, key: Key): LineState | undefined {
  const { text, cursor } = state;
  switch (key.name) {
    case "text":
    case "paste":
      return insert(state, key.text);
    case "newline":
      return insert(state, "\n");
    case "backspace": {
      const from = prevBoundary(text, cursor);
      return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
    }
    case "delete":
      return { text: text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor };
    case "left":
      return { text, cursor: prevBoundary(text, cursor) };
    case "right":
      return { text, cursor: nextBoundary(text, cursor) };
    case "home":
      return { text, cursor: text.lastIndexOf("\n", cursor - 1) + 1 };
    case "end": {
      const end = text.indexOf("\n", cursor);
      return { text, cursor: end === -1 ? text.length : end };
    }
    case "word-left":
      return { text, cursor: wordStart(text, cursor) };
    case "word-right":
      return { text, cursor: wordEnd(text, cursor) };
    case "delete-word-back": {
      const from = wordStart(text, cursor);
      return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
    }
    case "delete-word-forward":
      return { text: text.slice(0, cursor) + text.slice(wordEnd(text, cursor)), cursor };
    case "kill-to-end": {
      const end = text.indexOf("\n", cursor);
      return { text: text.slice(0, cursor) + (end === -1 ? "" : text.slice(end === cursor ? end + 1 : end)), cursor };
    }
    case "kill-to-start": {
      const start = text.lastIndexOf("\n", cursor - 1) + 1;
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
    default:
      return undefined;
  }
}

/**
 * Up and Down inside a multi-line input move between its lines, keeping the column where it
 * can. Undefined when already on the first (up) or last (down) line: then they walk history.
 */
export function moveLine(state: LineState, direction: "up" | "down"): LineState | undefined {
  const { text, cursor } = state;
  const lineStart = text.lastIndexOf("\n", cursor - 1) + 1;
  const column = Bun.stringWidth(text.slice(lineStart, cursor)); // on screen: wide characters count twice
  if (direction === "up") {
    if (lineStart === 0) return undefined;
    const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    return { text, cursor: atColumn(text, prevStart, lineStart - 1, column) };
  }
  const lineEnd = text.indexOf("\n", cursor);
  if (lineEnd === -1) return undefined;
  const nextEnd = text.indexOf("\n", lineEnd + 1);
  return { text, cursor: atColumn(text, lineEnd + 1, nextEnd === -1 ? text.length : nextEnd, column) };
}

/** The cursor in the line from `start` to `end` nearest `column` on screen, at or before it. */
function atColumn(text: string, start: number, end: number, column: number): number {
  let at = start;
  let width = 0;
  while (at < end) {
    const next = nextBoundary(text, at);
    width += Bun.stringWidth(text.slice(at, next));
    if (width > column) break;
    at = next;
  }
  return at;
}

/** A line showing `text` with the cursor at its end. */
export function lineOf(text: string): LineState {
  return { text, cursor: text.length };
}

function insert(state: LineState, inserted: string): LineState {
  const clean = inserted.replace(/\t/g, "  ").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
  return { text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor), cursor: state.cursor + clean.length };
}

function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return snapToBoundary(text, i); // a mark after a space belongs to it
}

function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  while (i < text.length && !/\s/.test(text[i]!)) i++;
  return i;
}
