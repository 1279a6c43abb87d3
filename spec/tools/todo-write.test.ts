import { expect, test } from "bun:test";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { createTodoWriteTool } from "../../lib/tools/todo-write.ts";
import { runTool, type ToolContext } from "../../lib/tools/define.ts";
import { ToolError } from "../../lib/errors.ts";

const ctx: ToolContext = { root: "/tmp", cwd: "/tmp", signal: new AbortController().signal };

function setup(initial: Todo[] = []) {
  const notebook = createNotebook(initial);
  return { notebook, tool: createTodoWriteTool(notebook) };
}

test("replaces the whole list, returns the rendered block and a done count", async () => {
  const { notebook, tool } = setup([{ content: "old", status: "in_progress" }]);
  const result = await runTool(
    tool,
    {
      todos: [
        { content: "read the pagination code", status: "completed" },
        { content: "fix the boundary", status: "in_progress" },
        { content: "add a test", status: "pending" },
        { content: "update the docs", status: "blocked", note: "no write access to the wiki" },
      ],
    },
    ctx,
  );
  expect(notebook.todos().map((t) => t.content)).toEqual(["read the pagination code", "fix the boundary", "add a test", "update the docs"]);
  expect(result.output).toStartWith("tasks ##########.............. 1/4  1 blocked\n[x] read the pagination code");
  expect(result.output).not.toContain("Warnings");
  expect(result.summary).toBe("1/4 done");
  expect(tool.mutates).toBe(false);
});

test("a list that breaks a rule is still saved, with warnings in the output", async () => {
  const { notebook, tool } = setup();
  const result = await runTool(tool, { todos: [{ content: "a", status: "in_progress" }, { content: "b", status: "in_progress" }] }, ctx);
  expect(notebook.todos()).toHaveLength(2);
  expect(result.output).toContain("Warnings (the list was saved; fix these on your next todo_write):\n- 2 tasks are in_progress");
  expect(result.summary).toBe("0/2 done, 1 warning");
});

test("an empty array clears the list", async () => {
  const { notebook, tool } = setup([{ content: "old", status: "pending" }]);
  const result = await runTool(tool, { todos: [] }, ctx);
  expect(notebook.todos()).toEqual([]);
  expect(result).toEqual({ output: "Task list cleared.", summary: "cleared" });
});

const PREVIOUS: Todo[] = [{ content: "keep me", status: "in_progress" }];

for (const [name, input, message] of [
  ["an unknown status", { todos: [{ content: "a", status: "pending" }, { content: "b", status: "pending" }, { content: "c", status: "done" }] }, 'todos.2.status: must be one of pending, in_progress, completed, blocked (got "done")'],
  ["empty content", { todos: [{ content: "   ", status: "pending" }] }, "todos.0.content: must not be empty"],
  ["a missing status", { todos: [{ content: "a" }] }, "todos.0.status: is required"],
  ["a non-array", { todos: "read the code" }, "todos: must be an array of { content, status, note? } (got \"read the code\")"],
  ["no todos at all", {}, "todos: is required"],
] as const) {
  test(`${name} is an error naming the problem, and the previous list stays`, async () => {
    const { notebook, tool } = setup(PREVIOUS);
    let changed = false;
    notebook.onChange(() => (changed = true));
    const error = await runTool(tool, input, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toContain(`todo_write: invalid arguments (${message})`);
    expect(notebook.todos()).toEqual(PREVIOUS);
    expect(changed).toBe(false);
  });
}

test("content and notes are trimmed to one line; a blank note is no note", async () => {
  const { notebook, tool } = setup();
  await runTool(tool, { todos: [{ content: "  fix\n the  bug ", status: "blocked", note: "  " }] }, ctx);
  expect(notebook.todos()).toEqual([{ content: "fix the bug", status: "blocked" }]);
});

test("the description carries the rules: whole list each call, the four states, one in_progress, a note for blocked, where the list goes", () => {
  const { description } = createTodoWriteTool(createNotebook());
  expect(description).toContain("Each call replaces the whole list");
  for (const state of ["pending", "in_progress", "completed", "blocked"]) expect(description).toContain(state);
  expect(description).toContain("exactly one while work remains");
  expect(description).toContain("blocked (note says what blocks it)");
  expect(description).toContain("as its last item");
  expect(description).not.toContain("top of every step");
});
