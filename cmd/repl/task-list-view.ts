import { renderTodos } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { taskPanel, todoRows } from "./live-panel.ts";
import type { Theme } from "./theme.ts";

/**
 * The task list as the loop shows it: live in the panel above the input while a turn runs (a
 * screen without a live area gets each change written instead), and, after a turn that changed
 * it, once more in the transcript as the turn left it, since the panel goes with the live area.
 */
export function createTaskListView(deps: { rich: boolean; theme: Theme; columns: () => number; print: (text: string) => void; turnRunning: () => boolean }) {
  const { theme } = deps;
  let todos: readonly Todo[] = [];
  let changedThisTurn = false;
  return {
    /** The list the session starts with (a resumed one's), shown from the first turn on. */
    reset(next: readonly Todo[]): void {
      todos = next;
    },
    /** A todo_write changed the list. */
    changed(next: readonly Todo[]): void {
      todos = next;
      if (deps.turnRunning()) changedThisTurn = true;
      if (!deps.rich) deps.print(theme.dim(renderTodos(next) || "tasks: (cleared)"));
    },
    /** The panel's rows for the live area. */
    panel: (): string[] => taskPanel(todos, theme, deps.columns() - 1),
    /** The turn ended: the list goes to the transcript if the turn changed it (live screens only; the others got each change). */
    turnEnded(): void {
      if (!changedThisTurn) return;
      changedThisTurn = false;
      if (!deps.rich) return;
      deps.print(todos.length > 0 ? todoRows(todos, deps.columns() - 1).map((row) => theme.dim(row)).join("\n") : theme.dim("tasks: (cleared)"));
    },
  };
}
