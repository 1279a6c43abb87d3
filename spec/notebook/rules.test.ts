import { expect, test } from "bun:test";
import { checkTodos } from "../../lib/notebook/rules.ts";
import type { Todo } from "../../lib/notebook/schema.ts";

const todo = (content: string, status: Todo["status"], note?: string): Todo => (note ? { content, status, note } : { content, status });

test("a healthy list has no warnings", () => {
  expect(
    checkTodos([
      todo("read the pagination code", "completed"),
      todo("fix the boundary", "in_progress"),
      todo("add a test", "pending"),
      todo("update the docs", "blocked", "no write access to the wiki"),
    ]),
  ).toEqual([]);
});

test("an empty list and a finished list have no warnings", () => {
  expect(checkTodos([])).toEqual([]);
  expect(checkTodos([todo("a", "completed"), todo("b", "completed")])).toEqual([]);
});

test("more than one in_progress names them and says to keep one", () => {
  const warnings = checkTodos([todo("a", "in_progress"), todo("b", "in_progress"), todo("c", "pending")]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('2 tasks are in_progress ("a", "b")');
  expect(warnings[0]).toContain("Keep exactly one in_progress");
});

test("pending work with nothing in_progress is warned about", () => {
  const warnings = checkTodos([todo("a", "completed"), todo("b", "pending"), todo("c", "pending")]);
  expect(warnings).toEqual(["No task is in_progress while 2 are pending. Mark the task you are working on now as in_progress."]);
});

test("only blocked work left is not 'work remains': no in_progress warning", () => {
  expect(checkTodos([todo("a", "completed"), todo("b", "blocked", "needs the API key")])).toEqual([]);
});

test("a blocked task without a note is warned about, by name", () => {
  const warnings = checkTodos([todo("a", "in_progress"), todo("update the docs", "blocked")]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toStartWith('"update the docs" is blocked without a note. Add a note saying what blocks it');
});

test("warnings add up", () => {
  expect(checkTodos([todo("a", "pending"), todo("b", "blocked"), todo("c", "blocked")])).toHaveLength(3);
});
