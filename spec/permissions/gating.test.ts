import { expect, test } from "bun:test";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createMemoryTools } from "../../lib/memory/tools.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { createTodoWriteTool } from "../../lib/notebook/todo-write-tool.ts";
import { DEFAULT_DECISIONS, defaultDecision } from "../../lib/permissions/defaults.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

/** Every tool a session can register: the core tools, the task list and the memory tools. */
function registeredTools() {
  const store = createMemoryStore({ home: tempDir(), projectRoot: tempDir() });
  return [...coreTools, createTodoWriteTool(createNotebook()), ...createMemoryTools(store)];
}

test("every tool that writes or runs has an ask or deny default", () => {
  const tools = registeredTools();
  expect(tools.some((tool) => tool.mutates)).toBe(true);
  const ungated = tools
    .filter((tool) => tool.mutates)
    .filter((tool) => {
      const listed = DEFAULT_DECISIONS[tool.name];
      const decisions = ["", "x", "src/a.ts", "ls -la"].map((subject) => defaultDecision(tool, subject));
      return listed === "allow" || decisions.some((decision) => decision === "allow");
    })
    .map((tool) => tool.name);
  expect(ungated).toEqual([]);
});

test("the tools the defaults table allows are all read-only", () => {
  const byName = new Map(registeredTools().map((tool) => [tool.name, tool]));
  for (const [name, decision] of Object.entries(DEFAULT_DECISIONS)) {
    if (decision === "allow" && byName.has(name)) expect({ name, mutates: byName.get(name)!.mutates }).toEqual({ name, mutates: false });
  }
});
