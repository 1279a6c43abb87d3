import { renderTodo, renderTodos } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { fitRow, wrapHanging } from "../../lib/text/wrap.ts";
import type { LoopState } from "./loop-state.ts";
import type { Theme } from "./theme.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Tasks named in the live panel under its progress line. */
const PANEL_ITEMS = 3;

/** The task list while a turn runs: its progress line and the task(s) in hand, each fitted to `width`. */
export function taskPanel(todos: readonly Todo[], theme: Theme, width: number): string[] {
  if (todos.length === 0) return [];
  const current = todos.filter((t) => t.status === "in_progress");
  const next = current.length > 0 ? current : todos.filter((t) => t.status === "pending").slice(0, 1);
  return [renderTodos(todos).split("\n")[0]!, ...next.slice(0, PANEL_ITEMS).map((t) => "  " + renderTodo(t))].map((row) => theme.dim(fitRow(row, width)));
}

/**
 * The whole task list for the transcript (/todos, and the list a turn leaves), `width` wide: a
 * long task wraps under its own text, past its `[~] ` mark, never back at the first column.
 */
export function todoRows(todos: readonly Todo[], width: number): string[] {
  if (todos.length === 0) return [];
  const header = renderTodos(todos).split("\n")[0]!;
  // Too narrow for the header: its blocked count goes on a row of its own, under the bar.
  const [progress, blocked] = header.split("  ");
  const heading = Bun.stringWidth(header) <= width || !blocked ? [header] : [progress!, "      " + blocked];
  return [
    ...heading.map((row) => fitRow(row, width)),
    ...todos.flatMap((todo) => {
      const line = renderTodo(todo);
      const mark = line.slice(0, 4); // "[x] "
      return wrapHanging(mark, " ".repeat(mark.length), line.slice(mark.length), width);
    }),
  ];
}

/**
 * `⠹ reading src/a.ts · 3s · esc to interrupt`: what the loop is doing, and for how long. A wait
 * (before a retry) counts down instead: `⠹ waiting to retry · 4s left · esc to interrupt`; once it
 * is over, the request is being sent again: `working`, timed from the wait's end.
 */
export function spinnerRow(state: Pick<LoopState, "activity" | "activitySince" | "activityUntil" | "frame">, now = Date.now()): string {
  const frame = SPINNER[state.frame % SPINNER.length];
  const until = state.activityUntil;
  if (until !== undefined && now < until) {
    const [what, ...more] = (state.activity ?? "waiting").split(" · ");
    return [`${frame} ${what}`, `${Math.ceil((until - now) / 1000)}s left`, ...more, "esc to interrupt"].join(" · ");
  }
  const [what, ...more] = (until !== undefined ? "working" : (state.activity ?? "working")).split(" · ");
  const seconds = Math.floor((now - (until ?? state.activitySince)) / 1000);
  return [`${frame} ${what}`, ...(seconds >= 1 ? [`${seconds}s`] : []), ...more, "esc to interrupt"].join(" · ");
}
