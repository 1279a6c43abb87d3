import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { firstStringArgument, subjectsOf, transcriptItems } from "../../lib/sessions/transcript-items.ts";
import { toolsFor } from "../../lib/tools/index.ts";

const calls = (...list: Array<[string, unknown]>): ModelMessage[] => [
  { role: "assistant", content: list.map(([toolName, input], i) => ({ type: "tool-call" as const, toolCallId: `c${i}`, toolName, input })) },
];
const subjects = (messages: ModelMessage[], subjectOf = subjectsOf(toolsFor({ notebook: createNotebook() }))) =>
  transcriptItems(messages, subjectOf).map((item) => (item.type === "tool-call" ? `${item.tool} ${item.subject}` : item.type));

test("a call's subject is the one its tool's definition gives, as on the live screen", () => {
  // The old guess took the first of path, command, pattern…: grep and glob showed their directory, todo_write nothing.
  const messages = calls(["grep", { path: "src", pattern: "pageSize" }], ["glob", { path: "lib", pattern: "**/*.ts" }], ["list_dir", {}], ["todo_write", { todos: [{}, {}] }], ["bash", { command: "ls" }]);
  expect(subjects(messages)).toEqual(["grep pageSize", "glob **/*.ts", "list_dir .", "todo_write 2 tasks", "bash ls"]);
});

test("a tool without a definition at hand reads by its first string argument", () => {
  expect(subjects(calls(["launch", { count: 3, target: "moon" }], ["remember", { kind: "fact", text: "x" }]))).toEqual(["launch moon", "remember fact"]);
  expect(subjects(calls(["grep", { path: "src", pattern: "p" }]), firstStringArgument)).toEqual(["grep src"]);
});
