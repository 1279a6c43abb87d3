// Every default tool exactly as a request carries it (name, description, JSON schema of its input),
// kept as a snapshot so a change to what the model reads shows up in review; and their size.
import { describe, expect, test } from "bun:test";
import { createTaskTool } from "../../lib/agent/subagent/task-tool.ts";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import type { Commands } from "../../lib/sandbox/index.ts";
import { createBashTool } from "../../lib/tools/bash.ts";
import { defaultCommands } from "../../lib/tools/commands.ts";
import { toolJsonSchema, type AnyTool } from "../../lib/tools/define.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

/** What the model reads of a tool, in the Responses wire's shape. */
const wire = (tool: AnyTool) => ({ type: "function", name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) });

const dir = tempDir();
const own = toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: dir, projectRoot: dir }) });
const task = (workers: boolean) =>
  createTaskTool({ workers, sessionTools: () => own, runtime: () => { throw new Error("no runtime in a schema test"); }, turn: () => undefined, record: () => {} });
/** The default set of an interactive session (the task tool offers workers there). */
const defaults = [...own, task(true)];
/** bash as a session with the sandbox on offers it: the description says what the sandbox allows. */
const sandboxedBash = createBashTool({ ...defaultCommands(dir), status: { state: "on" } as Commands["status"] });

describe("the default tools as the model sees them", () => {
  for (const tool of defaults) {
    test(tool.name, () => expect(JSON.stringify(wire(tool), null, 2)).toMatchSnapshot());
  }
  test("bash with the sandbox on", () => expect(JSON.stringify(wire(sandboxedBash), null, 2)).toMatchSnapshot());
  test("task without workers (headless, read-only agents)", () => expect(JSON.stringify(wire(task(false)), null, 2)).toMatchSnapshot());

  test("no schema carries the $schema dialect line", () => {
    for (const tool of [...defaults, sandboxedBash]) expect(JSON.stringify(toolJsonSchema(tool))).not.toContain("$schema");
  });

  test("they average at most 550 characters each, the sandboxed bash counted", () => {
    const set = defaults.map((tool) => (tool.name === "bash" ? sandboxedBash : tool));
    expect(set.map((tool) => tool.name)).toEqual(defaults.map((tool) => tool.name));
    expect(set).toHaveLength(19);
    const sizes = set.map((tool) => JSON.stringify({ ...wire(tool), strict: false }).length);
    expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).toBeLessThanOrEqual(550);
  });
});
