import { describe, expect, test } from "bun:test";
import { toJsonSchema } from "@valibot/to-json-schema";
import { coreTools } from "../../lib/tools/index.ts";

describe("coreTools", () => {
  test("lists the eight core tools by their exact names", () => {
    expect(coreTools.map((tool) => tool.name)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "multi_edit",
      "glob",
      "grep",
      "list_dir",
      "bash",
    ]);
  });

  test("only the tools that change files or run commands need approval", () => {
    const mutating = coreTools.filter((tool) => tool.mutates).map((tool) => tool.name);
    expect(mutating).toEqual(["write_file", "edit_file", "multi_edit", "bash"]);
  });

  test("every tool has a description and an object JSON schema the model can read", () => {
    for (const tool of coreTools) {
      expect(tool.description.length).toBeGreaterThan(80);
      const schema = toJsonSchema(tool.schema, { errorMode: "ignore" }) as { type: string; properties: Record<string, unknown> };
      expect(schema.type).toBe("object");
      expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
    }
  });

  test("the subject is the path, pattern or command", () => {
    const subject = (name: string, input: unknown) => coreTools.find((tool) => tool.name === name)!.subject(input);
    expect(subject("read_file", { path: "src/a.ts" })).toBe("src/a.ts");
    expect(subject("multi_edit", { path: "b.ts", edits: [] })).toBe("b.ts");
    expect(subject("grep", { pattern: "TODO" })).toBe("TODO");
    expect(subject("glob", { pattern: "**/*.ts" })).toBe("**/*.ts");
    expect(subject("list_dir", {})).toBe(".");
    expect(subject("bash", { command: "bun test" })).toBe("bun test");
  });
});
