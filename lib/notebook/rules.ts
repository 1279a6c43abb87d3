import type { Todo } from "./schema.ts";

/**
 * Warnings about a list the model just wrote. Advisory only: todo_write still succeeds and
 * returns them, so the model can fix the list on its next call. Empty for a healthy list.
 *
 * "Work remains" means at least one task is `pending`. Blocked tasks do not count: they cannot
 * be worked on until something outside the agent changes, so demanding an `in_progress` task when
 * everything left is blocked would push the model to mark a blocked task in_progress (a lie).
 * The right move then is to tell the user what blocks the work, which needs no warning.
 */
export function checkTodos(todos: readonly Todo[]): string[] {
  const warnings: string[] = [];
  const inProgress = todos.filter((todo) => todo.status === "in_progress");
  const pending = todos.filter((todo) => todo.status === "pending");

  if (inProgress.length > 1) {
    warnings.push(
      `${inProgress.length} tasks are in_progress (${quoteAll(inProgress)}). Keep exactly one in_progress: ` +
        "mark the finished ones completed and set the others back to pending.",
    );
  }
  if (inProgress.length === 0 && pending.length > 0) {
    warnings.push(
      `No task is in_progress while ${pending.length} ${pending.length === 1 ? "is" : "are"} pending. ` +
        "Mark the task you are working on now as in_progress.",
    );
  }
  for (const todo of todos) {
    if (todo.status === "blocked" && !todo.note) {
      warnings.push(`"${todo.content}" is blocked without a note. Add a note saying what blocks it, e.g. "waiting for the API key".`);
    }
  }
  return warnings;
}

function quoteAll(todos: readonly Todo[]): string {
  return todos.map((todo) => `"${todo.content}"`).join(", ");
}
