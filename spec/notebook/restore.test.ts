import { expect, test } from "bun:test";
import { restoreTodos } from "../../lib/notebook/restore.ts";
import type { Todo } from "../../lib/notebook/schema.ts";

test("a valid saved list comes back whole, without a notice", () => {
  const todos: Todo[] = [
    { content: "a", status: "completed" },
    { content: "b", status: "blocked", note: "needs a key" },
  ];
  expect(restoreTodos(todos)).toEqual({ todos, dropped: 0 });
});

test("invalid entries are dropped with a notice; the rest keep their order", () => {
  const result = restoreTodos([
    { content: "a", status: "completed" },
    { content: "b", status: "done" },
    "not a task",
    { content: "", status: "pending" },
    { content: "c", status: "pending" },
  ]);
  expect(result.todos).toEqual([
    { content: "a", status: "completed" },
    { content: "c", status: "pending" },
  ]);
  expect(result.dropped).toBe(3);
  expect(result.notice).toStartWith("Dropped 3 of 5 saved tasks that failed validation (#2: status must be one of");
  expect(result.notice).toContain("#4: content must not be empty");
  expect(result.notice).toEndWith("The rest of the task list was restored.");
});

test("a non-array is an empty list with a notice, never a crash", () => {
  for (const raw of [{ todos: [] }, "[]", 42]) {
    const result = restoreTodos(raw);
    expect(result.todos).toEqual([]);
    expect(result.notice).toContain("was not a list");
  }
});

test("a missing list (older session, or none written) is empty and silent", () => {
  expect(restoreTodos(undefined)).toEqual({ todos: [], dropped: 0 });
  expect(restoreTodos(null)).toEqual({ todos: [], dropped: 0 });
});
