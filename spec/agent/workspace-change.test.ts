// Which steps are saved at once (a crash right after must not lose what they did to the files).
import { expect, test } from "bun:test";
import { createTaskTool } from "../../lib/agent/subagent/task-tool.ts";
import { changesWorkspace } from "../../lib/agent/workspace-change.ts";
import { isReadOnlyCommand, readOnlyList } from "../../lib/permissions/read-only.ts";
import { coreTools } from "../../lib/tools/index.ts";

// The session's tools as a conversation has them: the core tools and the task tool.
const task = createTaskTool({ workers: true, sessionTools: () => coreTools, runtime: () => { throw new Error("no runtime here"); }, turn: () => undefined, record: () => {} });
const tools = [...coreTools, task];
const changes = changesWorkspace(() => tools, (command) => isReadOnlyCommand(command, readOnlyList(undefined), "/tmp"));

test("a command that writes, or that the read-only list does not know, changes the workspace", () => {
  expect(changes("bash", { command: "npm test" })).toBe(true);
  expect(changes("bash", { command: "echo hi > notes.txt" })).toBe(true);
  expect(changes("bash", { command: "ls && rm -rf build" })).toBe(true);
  expect(changes("write_file", { path: "a.ts", content: "x" })).toBe(true);
  expect(changes("task", { tasks: [] })).toBe(true);
});

test("a command that only reads, and a tool that only reads, do not", () => {
  expect(changes("bash", { command: "ls -la" })).toBe(false);
  expect(changes("bash", { command: "git status && cat README.md" })).toBe(false);
  expect(changes("read_file", { path: "a.ts" })).toBe(false);
  expect(changes("no_such_tool", {})).toBe(false);
});

test("a command line the check cannot judge counts as a change", () => {
  const throwing = changesWorkspace(() => coreTools, () => {
    throw new Error("cannot judge");
  });
  expect(throwing("bash", { command: "ls" })).toBe(true);
  expect(changes("bash", {})).toBe(true); // no command at all: nothing to judge
});
