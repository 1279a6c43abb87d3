import * as v from "valibot";
import type { Notebook } from "../notebook/notebook.ts";
import { renderTodos } from "../notebook/render.ts";
import { checkTodos } from "../notebook/rules.ts";
import { TODO_MAX_ITEMS, TODO_TEXT_MAX_CHARS, Todo } from "../notebook/schema.ts";
import { defineTool, type AnyTool } from "./define.ts";

/**
 * One task as todo_write takes it: the notebook's Todo, with the content and note capped so a
 * model cannot fill every request (the list is in the instructions of each step) with one call.
 */
const CappedTodo = v.pipe(
  Todo,
  v.check((todo) => todo.content.length <= TODO_TEXT_MAX_CHARS, (issue) => `content is ${(issue.input as Todo).content.length} characters; the limit is ${TODO_TEXT_MAX_CHARS}. Keep a task to one short line`),
  v.check((todo) => (todo.note?.length ?? 0) <= TODO_TEXT_MAX_CHARS, (issue) => `note is ${(issue.input as Todo).note?.length} characters; the limit is ${TODO_TEXT_MAX_CHARS}. Shorten it`),
);

const schema = v.object(
  {
    todos: v.pipe(
      v.array(CappedTodo, (issue) => `must be an array of { content, status, note? } (got ${issue.received})`),
      v.maxLength(TODO_MAX_ITEMS, (issue) => `has ${(issue.input as unknown[]).length} tasks; the limit is ${TODO_MAX_ITEMS}. Merge small steps and drop finished ones`),
    ),
  },
  (issue) => (issue.received === "undefined" && issue.expected.startsWith('"') ? "is required" : `must be an object { todos: [...] } (got ${issue.received})`),
);

const DESCRIPTION = [
  "Your task list for this session, one line a task. Each call replaces the whole list: send every task. [] clears it.",
  "Use it for work of three or more steps or several requests: plan first, update as you go.",
  "States: pending, in_progress (what you do now; exactly one while work remains), completed (mark it at once), blocked (note says what blocks it).",
  "The list goes with every request, as its last item, and outlives pruning and /compact: if it should survive this turn, todo_write it. A list breaking a rule is saved with warnings to fix.",
].join("\n");

/**
 * `todo_write`, bound to one session's notebook. Invalid input never reaches execute (runTool
 * rejects it with the failing path, e.g. "todos.2.status: must be one of …"), so a bad call
 * leaves the previous list in place. Not a mutating tool: it changes no file and needs no approval.
 */
export function createTodoWriteTool(notebook: Notebook): AnyTool {
  return defineTool({
    name: "todo_write",
    description: DESCRIPTION,
    schema,
    mutates: false,
    subagents: "none",
    subject: { kind: "text", of: (input) => `${input.todos.length} ${input.todos.length === 1 ? "task" : "tasks"}` },
    defaultDecision: "allow",
    async execute(input) {
      notebook.replace(input.todos);
      const todos = notebook.todos();
      if (todos.length === 0) return { output: "Task list cleared.", summary: "cleared" };
      const warnings = checkTodos(todos);
      const done = `${todos.filter((todo) => todo.status === "completed").length}/${todos.length} done`;
      const output =
        warnings.length === 0
          ? renderTodos(todos)
          : `${renderTodos(todos)}\n\nWarnings (the list was saved; fix these on your next todo_write):\n${warnings.map((w) => `- ${w}`).join("\n")}`;
      const summary = warnings.length === 0 ? done : `${done}, ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}`;
      return { output, summary };
    },
  });
}
