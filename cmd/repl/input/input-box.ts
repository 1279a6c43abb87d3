import type { CompleteOptions } from "../../../lib/prompt/complete.ts";
import { startWalk, walkDown, walkUp, type HistoryStore, type HistoryWalk } from "../../../lib/prompt/history.ts";
import { moveRow } from "./input-layout.ts";
import type { Key } from "./keys.ts";
import { EMPTY_LINE, editLine, lineOf, moveLine, type LineState } from "./line-edit.ts";
import { acceptPicker, typedCommandPicker, movePicker, pickerRows, pressTab, type Picker } from "./picker.ts";
import type { Theme } from "../theme.ts";

export type InputBox = {
  line(): LineState;
  /** Rows under the input (`width` columns): the completion picker, when open. */
  rows(theme: Theme, width?: number): string[];
  /**
   * Enter. Takes the picker's choice, or turns a trailing `\` into a new line; otherwise returns
   * the text to submit (recorded in the prompt history) and empties the box. Blank: undefined.
   * `text` has every collapsed paste put back whole; `shown` is the line as the box showed it.
   */
  enter(): { text: string; shown: string } | undefined;
  /**
   * Up/Down: the picker, then the rows of an input that takes several (drawn after `prompt` on a
   * screen `cols` wide: a line wrapped counts its rows; without a layout, the lines of the text),
   * then the history, from the first row (up) or the last (down).
   */
  arrow(direction: "up" | "down", layout?: { prompt: string; cols: number }): void;
  /** Tab. Returns candidates to list when there are several and no picker can be drawn. */
  tab(): string[] | undefined;
  /** Esc: closes the picker; false when there was none (so esc means interrupt). */
  closePicker(): boolean;
  clear(): void;
  /** Replaces the text (the cursor at its end): a prompt given back for editing (/undo). */
  set(text: string): void;
  /** Any editing key; other keys are ignored. */
  edit(key: Key): void;
};

/** A paste of more lines than this shows as one `[pasted N lines]` placeholder. */
export const PASTE_COLLAPSE_LINES = 8;
/** …and so does a paste this long, however few lines it has. */
const PASTE_COLLAPSE_CHARS = 2_000;

/**
 * The line being typed, with its history walk and completion picker. The same box serves the
 * idle prompt and typing ahead during a turn. A large paste is kept aside and shows as a
 * placeholder (`[pasted 80 lines]`), so the box stays a few rows tall; Enter sends it whole. A
 * placeholder edited by hand is no longer one, and is sent as typed.
 */
export function createInputBox(deps: {
  history: HistoryStore;
  complete: CompleteOptions;
  /** True when rows under the input can be drawn (a picker needs them). */
  canPick: boolean;
  /** A notice from the history store (a file set aside, a failed write). */
  onNotice(text: string): void;
}): InputBox {
  let line: LineState = EMPTY_LINE;
  let walk: HistoryWalk | undefined;
  let picker: Picker | undefined;
  /** Placeholders in the line now, and the text each stands for. */
  let pastes = new Map<string, string>();
  const expand = (text: string) => {
    let out = text;
    for (const [placeholder, pasted] of pastes) out = out.split(placeholder).join(pasted);
    return out;
  };
  const placeholderFor = (text: string): string => {
    const lines = text.replace(/\n$/, "").split("\n").length;
    const base = lines > 1 ? `[pasted ${lines} lines` : `[pasted ${text.length.toLocaleString("en-US")} characters`;
    let label = `${base}]`;
    for (let n = 2; pastes.has(label) || line.text.includes(label); n++) label = `${base} #${n}]`;
    return label;
  };

  return {
    line: () => line,
    rows: (theme, width) => (picker ? pickerRows(picker, theme, width) : []),
    enter() {
      if (picker) {
        line = acceptPicker(line, picker);
        const typed = picker.typed;
        picker = undefined;
        // The list `/` opened: enter runs the chosen command (as its name alone, without the
        // space a completion leaves for arguments); a tab list only completes.
        if (!typed) return undefined;
        line = lineOf(line.text.trimEnd());
      }
      if (line.text.endsWith("\\") && line.cursor === line.text.length) {
        line = lineOf(line.text.slice(0, -1) + "\n");
        return undefined;
      }
      const shown = line.text;
      // Nothing but spaces sends nothing, and leaves nothing behind to end up in front of the next prompt.
      if (shown.trim() === "") return void (line = EMPTY_LINE);
      const text = expand(shown);
      const notice = deps.history.add(text);
      if (notice) deps.onNotice(notice);
      line = EMPTY_LINE;
      walk = undefined;
      pastes = new Map();
      return { text, shown };
    },
    arrow(direction, layout) {
      if (picker) return void (picker = movePicker(picker, direction));
      const moved = layout ? moveRow(layout.prompt, line.text, line.cursor, layout.cols, direction) : moveLine(line, direction)?.cursor;
      if (moved !== undefined) return void (line = { text: line.text, cursor: moved });
      walk ??= startWalk(deps.history.entries());
      const step = direction === "up" ? walkUp(walk, line.text) : walkDown(walk);
      if (!step) return;
      walk = step.walk;
      // Up leaves the cursor on the prompt's first row (at the end of its first line), so up again
      // goes on to the older one instead of climbing a long prompt row by row; down, on its last.
      const firstLineEnd = step.text.indexOf("\n");
      line = direction === "up" && firstLineEnd >= 0 ? { text: step.text, cursor: firstLineEnd } : lineOf(step.text);
    },
    tab() {
      if (picker) {
        line = acceptPicker(line, picker);
        picker = undefined;
        return undefined;
      }
      const outcome = pressTab(line, deps.complete, deps.canPick);
      line = outcome.line;
      picker = outcome.picker;
      return outcome.candidates && !outcome.picker ? outcome.candidates : undefined;
    },
    closePicker() {
      const open = picker !== undefined;
      picker = undefined;
      return open;
    },
    clear() {
      line = EMPTY_LINE;
      walk = undefined;
      picker = undefined;
      pastes = new Map();
    },
    set(text) {
      line = lineOf(text);
      walk = undefined;
      picker = undefined;
    },
    edit(key) {
      if (key.name === "paste" && (key.text.split("\n").length > PASTE_COLLAPSE_LINES || key.text.length >= PASTE_COLLAPSE_CHARS)) {
        const placeholder = placeholderFor(key.text);
        pastes.set(placeholder, key.text);
        key = { name: "paste", text: placeholder };
      }
      const next = editLine(line, key);
      if (!next) return;
      line = next;
      // Typing a command's name opens (and filters) the list of commands, where it can be drawn.
      picker = deps.canPick ? typedCommandPicker(line, deps.complete) : undefined;
    },
  };
}
