import { expect, test } from "bun:test";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { defaultDecision } from "../../lib/permissions/defaults.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

/** Every tool a session can register: the core tools, the task list and the memory tools. */
function registeredTools() {
  const store = createMemoryStore({ home: tempDir(), projectRoot: tempDir() });
  return toolsFor({ notebook: createNotebook(), memory: store });
}

test("every tool that writes or runs has an ask or deny default", () => {
  const tools = registeredTools();
  expect(tools.some((tool) => tool.mutates)).toBe(true);
  const ungated = tools
    .filter((tool) => tool.mutates)
    .filter((tool) => {
      const decisions = ["", "x", "src/a.ts", "ls -la"].map((subject) => defaultDecision(tool, subject));
      return tool.defaultDecision === "allow" || decisions.some((decision) => decision === "allow");
    })
    .map((tool) => tool.name);
  expect(ungated).toEqual([]);
});

test("the tools allowed by default are all read-only", () => {
  for (const tool of registeredTools()) {
    if (tool.defaultDecision === "allow") expect({ name: tool.name, mutates: tool.mutates }).toEqual({ name: tool.name, mutates: false });
  }
});
