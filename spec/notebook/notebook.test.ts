import { expect, test } from "bun:test";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import type { Todo } from "../../lib/notebook/schema.ts";

const a: Todo = { content: "a", status: "pending" };
const b: Todo = { content: "b", status: "in_progress" };

test("holds a copy of the list and notifies on change only", () => {
  const input = [a];
  const notebook = createNotebook(input);
  input.push(b);
  expect(notebook.todos()).toEqual([a]);

  const seen: [readonly Todo[], readonly Todo[]][] = [];
  const stop = notebook.onChange((todos, previous) => seen.push([todos, previous]));
  notebook.replace([a]);
  expect(seen).toHaveLength(0);
  notebook.replace([a, b]);
  expect(seen).toEqual([[[a, b], [a]]]);
  notebook.clear();
  expect(notebook.todos()).toEqual([]);
  expect(seen).toHaveLength(2);
  stop();
  notebook.replace([b]);
  expect(seen).toHaveLength(2);
});

test("the list it hands out cannot be edited in place", () => {
  const notebook = createNotebook([a]);
  expect(Object.isFrozen(notebook.todos())).toBe(true);
  expect(Object.isFrozen(notebook.todos()[0])).toBe(true);
});
