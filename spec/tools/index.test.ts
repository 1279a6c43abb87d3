import { describe, expect, test } from "bun:test";
import { toJsonSchema } from "@valibot/to-json-schema";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

/** Every tool a session gets, memory on. Nothing is written until a memory tool runs. */
function sessionTools() {
  return toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: tempDir(), projectRoot: tempDir() }) });
}

describe("toolsFor", () => {
  test("lists every tool a session gets, by their exact names, in the order the model sees them", () => {
    expect(sessionTools().map((tool) => tool.name)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "multi_edit",
      "apply_patch",
      "move_file",
      "delete_file",
      "glob",
      "grep",
      "list_dir",
      "bash",
      "jobs",
      "git",
      "web_fetch",
      "todo_write",
      "remember",
      "recall",
      "forget",
    ]);
  });

  test("without a memory store the memory tools are not offered", () => {
    const names = toolsFor({ notebook: createNotebook() }).map((tool) => tool.name);
    expect(names).toContain("todo_write");
    expect(names).not.toContain("remember");
    expect(names).toHaveLength(15);
  });

  test("a read-only set (plan, review) has neither bash nor jobs: it cannot start or stop a command", () => {
    const names = toolsFor({ notebook: createNotebook(), readOnly: true }).map((tool) => tool.name);
    expect(names).toContain("read_file");
    expect(names).not.toContain("bash");
    expect(names).not.toContain("jobs");
  });

  test("only the tools that change files or run commands need approval", () => {
    const mutating = sessionTools().filter((tool) => tool.mutates).map((tool) => tool.name);
    expect(mutating).toEqual(["write_file", "edit_file", "multi_edit", "apply_patch", "move_file", "delete_file", "bash"]);
  });


  test("every tool has a description and an object JSON schema the model can read", () => {
    for (const tool of sessionTools()) {
      expect(tool.description.length).toBeGreaterThan(40);
      const schema = toJsonSchema(tool.schema, { errorMode: "ignore" }) as { type: string; properties: Record<string, unknown> };
      expect(schema.type).toBe("object");
      expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
    }
  });

  test("the subject is the path, pattern, command or text, and says which", () => {
    const tools = sessionTools();
    const subject = (name: string, input: unknown) => {
      const tool = tools.find((t) => t.name === name)!;
      return [tool.subject.kind, tool.subject.of(input)];
    };
    expect(subject("read_file", { path: "src/a.ts" })).toEqual(["path", "src/a.ts"]);
    expect(subject("multi_edit", { path: "b.ts", edits: [] })).toEqual(["path", "b.ts"]);
    expect(subject("grep", { pattern: "TODO" })).toEqual(["pattern", "TODO"]);
    expect(subject("glob", { pattern: "**/*.ts" })).toEqual(["pattern", "**/*.ts"]);
    expect(subject("list_dir", {})).toEqual(["path", "."]);
    expect(subject("bash", { command: "bun test" })).toEqual(["command", "bun test"]);
    expect(subject("todo_write", { todos: [{}, {}] })).toEqual(["text", "2 tasks"]);
    expect(subject("remember", { kind: "fact", text: "x" })).toEqual(["text", "x"]);
  });
});
