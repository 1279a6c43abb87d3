import type { Todo, TodoStatus } from "./schema.ts";

/** Cells in the progress bar, whatever the list length (the spec's bar is 24 wide). */
export const TODO_BAR_WIDTH = 24;

/**
 * The task list as the user and the model see it:
 *
 *   tasks ##########.............. 1/4  1 blocked
 *   [x] read the pagination code
 *   [~] fix the boundary
 *   [ ] add a test
 *   [!] update the docs  (no write access to the wiki)
 *
 * Tasks keep the order the model gave them. A note follows its task after two spaces, in
 * parentheses, whatever the status: a note on a pending or completed task ("after the migration",
 * "kept the old name") is information the model wrote for itself, so it is never hidden.
 * The blocked count appears only when non-zero. An empty list renders as "" so it adds nothing to
 * the prompt. No trailing newline.
 */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return "";
  const completed = count(todos, "completed");
  const blocked = count(todos, "blocked");
  const header = `tasks ${progressBar(todos)} ${completed}/${todos.length}` + (blocked > 0 ? `  ${blocked} blocked` : "");
  return [header, ...todos.map(renderTodo)].join("\n");
}

export function renderTodo(todo: Todo): string {
  return `[${statusSymbol(todo.status)}] ${todo.content}` + (todo.note ? `  (${todo.note})` : "");
}

export function statusSymbol(status: TodoStatus): string {
  switch (status) {
    case "completed":
      return "x";
    case "in_progress":
      return "~";
    case "pending":
      return " ";
    case "blocked":
      return "!";
    default:
      return status satisfies never;
  }
}

/**
 * The bar measures effort, not only results (the count next to it already shows results).
 * Each task owns an equal share of the bar: a completed task fills all of its share, a started
 * one (in_progress, or blocked after being tried) fills a third of it, a pending one nothing.
 * filled = round(WIDTH × (3·completed + started) / (3·total)). For the spec's list (1 completed,
 * 1 in progress, 1 blocked, 1 pending) that is round(24 × 5/12) = 10, the spec's bar; a plain
 * completed/total bar would show 6.
 * Clamped so the bar is full only when every task is completed and never empty once one is.
 */
export function progressBar(todos: readonly Todo[]): string {
  const total = todos.length;
  if (total === 0) return ".".repeat(TODO_BAR_WIDTH);
  const completed = count(todos, "completed");
  const started = count(todos, "in_progress") + count(todos, "blocked");
  const raw = Math.round((TODO_BAR_WIDTH * (3 * completed + started)) / (3 * total));
  const min = completed > 0 ? 1 : 0;
  const max = completed < total ? TODO_BAR_WIDTH - 1 : TODO_BAR_WIDTH;
  const filled = Math.min(max, Math.max(min, raw));
  return "#".repeat(filled) + ".".repeat(TODO_BAR_WIDTH - filled);
}

function count(todos: readonly Todo[], status: TodoStatus): number {
  return todos.filter((todo) => todo.status === status).length;
}
