import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { firstStringArgument, subjectsOf, transcriptItems } from "../../lib/sessions/transcript-items.ts";
import { toolsFor } from "../../lib/tools/index.ts";

const calls = (...list: Array<[string, unknown]>): ModelMessage[] => [
  { role: "assistant", content: list.map(([toolName, input], i) => ({ type: "tool-call" as const, toolCallId: `c${i}`, toolName, input })) },
];
const subjects = (messages: ModelMessage[], subjectOf = subjectsOf(toolsFor({ notebook: createNotebook() }))) =>
  transcriptItems(messages, subjectOf).flatMap((item) => (item.type === "tool-call" ? [`${item.tool} ${item.subject}`] : []));

test("a call's subject is the one its tool's definition gives, as on the live screen", () => {
  // The old guess took the first of path, command, pattern…: grep and glob showed their directory, todo_write nothing.
  const messages = calls(["grep", { path: "src", pattern: "pageSize" }], ["glob", { path: "lib", pattern: "**/*.ts" }], ["list_dir", {}], ["todo_write", { todos: [{}, {}] }], ["bash", { command: "ls" }]);
  expect(subjects(messages)).toEqual(["grep pageSize", "glob **/*.ts", "list_dir .", "todo_write 2 tasks", "bash ls"]);
});

test("a tool without a definition at hand reads by its first string argument", () => {
  expect(subjects(calls(["launch", { count: 3, target: "moon" }], ["remember", { kind: "fact", text: "x" }]))).toEqual(["launch moon", "remember fact"]);
  expect(subjects(calls(["grep", { path: "src", pattern: "p" }]), firstStringArgument)).toEqual(["grep src"]);
});

test("a denied result carries the line the user saw when the session kept it; anything else in its place is ignored", () => {
  const result = (providerOptions: unknown): ModelMessage => ({
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "c0", toolName: "read_file", output: { type: "text", value: "Not run: read_file `.env` is denied: …" }, providerOptions: providerOptions as never }],
  });
  const shown = (providerOptions: unknown) => transcriptItems([result(providerOptions)]).map((item) => (item.type === "tool-result" ? [item.outcome, item.shown] : []));
  expect(shown({ shiro: { shown: "a secrets file, never read or written" } })).toEqual([["denied", "a secrets file, never read or written"]]);
  expect(shown(undefined)).toEqual([["denied", undefined]]);
  expect(shown({ shiro: { shown: 42 } })).toEqual([["denied", undefined]]);
  expect(shown({ shiro: "x" })).toEqual([["denied", undefined]]);
});

test("an answer's text on both sides of reasoning is one answer (a table the reasoning came in the middle of stays whole); a call in between splits it", () => {
  const answer = (...content: unknown[]): ModelMessage[] => [{ role: "assistant", content: content as never }];
  const texts = (messages: ModelMessage[]) => transcriptItems(messages).map((item) => (item.type === "assistant" ? item.text : item.type));
  const table = "| a | b |\n| - | - |\n| 1 | 2 |\n";
  expect(texts(answer({ type: "text", text: table }, { type: "reasoning", text: "hmm" }, { type: "text", text: "| 3 | 4 |\n\nDone." }))).toEqual([table + "| 3 | 4 |\n\nDone."]);
  // A line the reasoning came after was ended by it on the live screen too.
  expect(texts(answer({ type: "text", text: "Let me look." }, { type: "reasoning", text: "hmm" }, { type: "text", text: "Found it." }))).toEqual(["Let me look.\nFound it."]);
  expect(texts(answer({ type: "text", text: "Before." }, { type: "tool-call", toolCallId: "c", toolName: "bash", input: { command: "ls" } }, { type: "text", text: "After." }))).toEqual(["Before.", "tool-call", "tool-result", "After."]);
});

test("reasoning that came in the middle of a table row continues the row, as the live screen drew it, not a row broken in two", () => {
  const answer = (...content: unknown[]): ModelMessage[] => [{ role: "assistant", content: content as never }];
  const texts = (messages: ModelMessage[]) => transcriptItems(messages).map((item) => (item.type === "assistant" ? item.text : item.type));
  expect(texts(answer({ type: "text", text: "| a | b |\n| - | - |\n| 1 | 2" }, { type: "reasoning", text: "hmm" }, { type: "text", text: " |\n| 3 | 4 |\n" }))).toEqual(["| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |\n"]);
  // The line after a whole table was still being written: it goes on too.
  expect(texts(answer({ type: "text", text: "| a |\n| - |\n| 1 |\nDo" }, { type: "reasoning", text: "hmm" }, { type: "text", text: "ne." }))).toEqual(["| a |\n| - |\n| 1 |\nDone."]);
});
