import { expect, test } from "bun:test";
import { progressBar, renderTodos, TODO_BAR_WIDTH } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";

const SPEC_LIST: Todo[] = [
  { content: "read the pagination code", status: "completed" },
  { content: "fix the boundary", status: "in_progress" },
  { content: "add a test", status: "pending" },
  { content: "update the docs", status: "blocked", note: "no write access to the wiki" },
];

test("renders the spec's example byte for byte", () => {
  expect(renderTodos(SPEC_LIST)).toBe(
    [
      "tasks ##########.............. 1/4  1 blocked",
      "[x] read the pagination code",
      "[~] fix the boundary",
      "[ ] add a test",
      "[!] update the docs  (no write access to the wiki)",
    ].join("\n"),
  );
});

test("an empty list renders as nothing", () => {
  expect(renderTodos([])).toBe("");
});

test("the blocked count is hidden when there is none", () => {
  const header = renderTodos([
    { content: "a", status: "completed" },
    { content: "b", status: "in_progress" },
  ]).split("\n")[0];
  expect(header).toMatch(/^tasks [#.]{24} 1\/2$/);
});

test("0/n is an empty bar, n/n a full one, always the same width", () => {
  const pending: Todo[] = [1, 2, 3].map((n) => ({ content: `t${n}`, status: "pending" }));
  const done: Todo[] = [1, 2, 3].map((n) => ({ content: `t${n}`, status: "completed" }));
  expect(renderTodos(pending).split("\n")[0]).toBe(`tasks ${".".repeat(24)} 0/3`);
  expect(renderTodos(done).split("\n")[0]).toBe(`tasks ${"#".repeat(24)} 3/3`);
  expect(TODO_BAR_WIDTH).toBe(24);
});

test("the bar is full only when everything is completed, and shows any completion", () => {
  const many: Todo[] = Array.from({ length: 100 }, (_, i) => ({ content: `t${i}`, status: i < 99 ? "completed" : "in_progress" }));
  expect(progressBar(many)).toBe(`${"#".repeat(23)}.`);
  const one: Todo[] = Array.from({ length: 100 }, (_, i) => ({ content: `t${i}`, status: i === 0 ? "completed" : "pending" }));
  expect(progressBar(one)).toBe(`#${".".repeat(23)}`);
});

test("a note shows for any status", () => {
  expect(renderTodos([{ content: "migrate", status: "pending", note: "after the seed" }]).split("\n")[1]).toBe("[ ] migrate  (after the seed)");
});
