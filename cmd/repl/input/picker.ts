import { applyCompletion, commonPrefix, findCompletion, type CompleteOptions, type Completion } from "../../../lib/prompt/complete.ts";
import type { LineState } from "./line-edit.ts";
import { commandSummary } from "../../../lib/prompt/slash-commands.ts";
import type { Theme } from "../theme.ts";

/** Candidate rows shown under the input at once. */
const PICKER_ROWS = 8;

/**
 * The completion list under the input: Up/Down move, Tab or Enter take, Esc closes. `typed`: it
 * opened as a command name was typed (`/`, `/co`): each row says what the command does, and Enter
 * runs the chosen command rather than only completing it.
 */
export type Picker = { completion: Completion; selected: number; typed?: { describe: (candidate: string) => string | undefined } };

/**
 * The list that opens while a slash command's name is typed (the line is `/` or `/co`, the cursor
 * at its end): the commands that start so, each with its line. Undefined for anything else.
 */
export function typedCommandPicker(line: LineState, opts: CompleteOptions): Picker | undefined {
  if (!/^\/[^\s/]*$/.test(line.text) || line.cursor !== line.text.length) return undefined;
  const found = findCompletion(line.text, line.cursor, opts);
  if (found?.kind !== "command") return undefined;
  // A name typed whole is the one chosen (`/mode`, not `/model`, which starts the same).
  const exact = found.candidates.findIndex((candidate) => candidate.toLowerCase() === line.text.toLowerCase());
  return { completion: found, selected: Math.max(0, exact), typed: { describe: (candidate) => commandSummary(candidate, opts.descriptions) } };
}

export type TabOutcome = { line: LineState; picker?: Picker; candidates?: string[] };

/**
 * Tab at `line`: one candidate is taken at once; several are narrowed to their common prefix and
 * offered (`candidates`), with a picker to choose from when the screen can draw one.
 */
export function pressTab(line: LineState, opts: CompleteOptions, canPick: boolean): TabOutcome {
  const found = findCompletion(line.text, line.cursor, opts);
  if (!found) return { line };
  if (found.candidates.length === 1) return { line: asLine(applyCompletion(line.text, found, found.candidates[0]!)) };
  const typed = line.text.slice(found.start, line.cursor);
  const prefix = commonPrefix(found.candidates);
  let next = line;
  let completion = found;
  if (prefix.length > typed.length) {
    const text = line.text.slice(0, found.start) + prefix + line.text.slice(line.cursor);
    next = { text, cursor: found.start + prefix.length };
    completion = { ...found, end: found.end + prefix.length - typed.length };
  }
  return { line: next, candidates: found.candidates, ...(canPick ? { picker: { completion, selected: 0 } } : {}) };
}

export function movePicker(picker: Picker, direction: "up" | "down"): Picker {
  const count = picker.completion.candidates.length;
  return { ...picker, selected: (picker.selected + (direction === "down" ? 1 : count - 1)) % count };
}

export function acceptPicker(line: LineState, picker: Picker): LineState {
  return asLine(applyCompletion(line.text, picker.completion, picker.completion.candidates[picker.selected]!));
}

/** The rows under the input, `width` columns wide: a window of candidates around the selected one. */
export function pickerRows(picker: Picker, theme: Theme, width = Number.POSITIVE_INFINITY): string[] {
  const { candidates } = picker.completion;
  const first = Math.max(0, Math.min(picker.selected - PICKER_ROWS + 1, candidates.length - PICKER_ROWS));
  const shown = candidates.slice(first, first + PICKER_ROWS);
  const nameWidth = Math.max(...shown.map((candidate) => candidate.length));
  /** One line a command: its name, then what it does, clipped to the width. */
  const label = (candidate: string) => {
    const summary = picker.typed?.describe(candidate);
    const text = summary ? `${candidate.padEnd(nameWidth)}  ${summary}` : candidate;
    return text.length > width - 4 ? text.slice(0, Math.max(candidate.length, width - 5)) + "…" : text;
  };
  const rows = shown.map((candidate, i) => (first + i === picker.selected ? theme.prompt(`  › ${label(candidate)}`) : theme.dim(`    ${label(candidate)}`)));
  const hidden = candidates.length - rows.length;
  if (hidden > 0) rows.push(theme.dim(`    (${picker.selected + 1}/${candidates.length})`));
  return rows;
}

function asLine(applied: { line: string; cursor: number }): LineState {
  return { text: applied.line, cursor: applied.cursor };
}
