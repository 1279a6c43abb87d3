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
      v.description(
        "The complete task list, in order. Each item: content (one line saying what to do), " +
          "status (pending | in_progress | completed | blocked), note (optional; required in practice for blocked: what blocks it).",
      ),
    ),
  },
  (issue) => (issue.received === "undefined" && issue.expected.startsWith('"') ? "is required" : `must be an object { todos: [...] } (got ${issue.received})`),
);

const DESCRIPTION = [
  "Write your task list for this session. Each call replaces the whole list, so always send every task, not only the changed ones. An empty array clears it.",
  "Use it for work with three or more steps, or whenever the user gives you several things to do: write the plan before you start, then update it as you go. Skip it for a single quick question or edit.",
  "States: pending (not started), in_progress (what you are doing now), completed (done), blocked (cannot continue; put what blocks it in note).",
  "Rules: keep exactly one task in_progress while work remains. Mark a task completed as soon as it is done, not in a batch at the end. Add tasks you discover along the way; remove ones that turn out to be irrelevant.",
  "The list is shown to you at the top of every step and survives context pruning and /compact, while older messages may disappear. If it should survive this turn, todo_write it.",
  "The call succeeds even when the list breaks a rule; the result then lists warnings to fix on your next call. A call with invalid input changes nothing.",
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
