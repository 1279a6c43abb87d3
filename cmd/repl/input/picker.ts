import { applyCompletion, commonPrefix, findCompletion, type CompleteOptions, type Completion } from "../../../lib/prompt/complete.ts";
import type { LineState } from "./line-edit.ts";
import type { Theme } from "../theme.ts";

/** Candidate rows shown under the input at once. */
const PICKER_ROWS = 8;

/** The completion list under the input: Up/Down move, Tab or Enter take, Esc closes. */
export type Picker = { completion: Completion; selected: number };

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

/** The rows under the input: a window of candidates around the selected one. */
export function pickerRows(picker: Picker, theme: Theme): string[] {
  const { candidates } = picker.completion;
  const first = Math.max(0, Math.min(picker.selected - PICKER_ROWS + 1, candidates.length - PICKER_ROWS));
  const rows = candidates.slice(first, first + PICKER_ROWS).map((candidate, i) =>
    first + i === picker.selected ? theme.prompt(`  › ${candidate}`) : theme.dim(`    ${candidate}`),
  );
  const hidden = candidates.length - rows.length;
  if (hidden > 0) rows.push(theme.dim(`    (${picker.selected + 1}/${candidates.length})`));
  return rows;
}

function asLine(applied: { line: string; cursor: number }): LineState {
  return { text: applied.line, cursor: applied.cursor };
}
