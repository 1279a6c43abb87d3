import type { Key } from "./input/keys.ts";
import type { Theme } from "./theme.ts";
import { fitRow } from "../../lib/text/wrap.ts";

/** Rows of a choice list shown at once. */
const CHOICE_ROWS = 8;

/** One thing to choose: what the choice returns, and the row that shows it. */
export type ChoiceOption = { id: string; label: string };

/** What a caller asks to choose among: the title above the list, the hint under it, the row selected first. */
export type ChoiceRequest = { title: string; options: readonly ChoiceOption[]; hint: string; selected?: number };

/** A list open for choosing (the session picker, the model picker): up/down move, enter takes, esc closes. */
export type Choosing = ChoiceRequest & { selected: number; resolve: (id: string | undefined) => void };

export function openChoice(request: ChoiceRequest, resolve: (id: string | undefined) => void): Choosing {
  const last = request.options.length - 1;
  return { ...request, selected: Math.max(0, Math.min(request.selected ?? 0, last)), resolve };
}

/** The rows under the title: a window of options around the selected one, its position when they do not all fit, and the hint. */
export function choiceRows(c: Choosing, theme: Theme, width: number): string[] {
  const first = Math.max(0, Math.min(c.selected - CHOICE_ROWS + 1, c.options.length - CHOICE_ROWS));
  const rows = c.options
    .slice(first, first + CHOICE_ROWS)
    .map((option, i) => (first + i === c.selected ? theme.prompt(fitRow(`› ${option.label}`, width)) : theme.dim(fitRow(`  ${option.label}`, width))));
  if (c.options.length > CHOICE_ROWS) rows.push(theme.dim(`  (${c.selected + 1}/${c.options.length})`));
  rows.push(theme.dim(c.hint));
  return rows;
}

/**
 * One key while a list is open: up/down move (wrapping), enter chooses, esc or ctrl-c closes
 * without a choice, ctrl-d closes and asks to leave. Any other key is ignored.
 */
export function chooseKey(c: Choosing, key: Key): { done: false } | { done: true; id: string | undefined; exit?: true } {
  const count = c.options.length;
  if (key.name === "up" || key.name === "down") {
    c.selected = (c.selected + (key.name === "down" ? 1 : count - 1)) % count;
    return { done: false };
  }
  if (key.name === "enter") return { done: true, id: c.options[c.selected]!.id };
  if (key.name === "escape" || key.name === "ctrl-c") return { done: true, id: undefined };
  if (key.name === "ctrl-d") return { done: true, id: undefined, exit: true };
  return { done: false };
}
