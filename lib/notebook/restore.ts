import * as v from "valibot";
import { issueText } from "../text/schema-issue.ts";
import { Todo } from "./schema.ts";

export type RestoredTodos = {
  todos: Todo[];
  /** Saved entries that failed validation and were left out. */
  dropped: number;
  /** One line for the user when anything was dropped; absent when the list came back whole. */
  notice?: string;
};

/**
 * Rebuilds the task list from a session file (`record.notebook?.todos`). Never throws: a file
 * edited by hand or written by another version must not stop a resume.
 * Missing (undefined or null) is an empty list without a notice: sessions saved before the task
 * list existed, or with nothing in it. Any other non-array is an empty list with a notice.
 * Invalid entries are dropped one by one; the valid ones keep their order.
 */
export function restoreTodos(raw: unknown): RestoredTodos {
  if (raw === undefined || raw === null) return { todos: [], dropped: 0 };
  if (!Array.isArray(raw)) {
    return {
      todos: [],
      dropped: 0,
      notice: `The saved task list was not a list (got ${describe(raw)}), so the session starts with an empty task list.`,
    };
  }
  const todos: Todo[] = [];
  const problems: string[] = [];
  raw.forEach((entry, index) => {
    const parsed = v.safeParse(Todo, entry);
    if (parsed.success) todos.push(parsed.output);
    else problems.push(`#${index + 1}: ${issueText(parsed.issues[0], " ")}`);
  });
  if (problems.length === 0) return { todos, dropped: 0 };
  const dropped = problems.length;
  const shown = problems.slice(0, 3).join("; ") + (dropped > 3 ? `; and ${dropped - 3} more` : "");
  return {
    todos,
    dropped,
    notice: `Dropped ${dropped} of ${raw.length} saved ${raw.length === 1 ? "task" : "tasks"} that failed validation (${shown}). The rest of the task list was restored.`,
  };
}

function describe(value: unknown): string {
  if (typeof value === "string") return "a string";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
