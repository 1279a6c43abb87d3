import { expect, test } from "bun:test";
import { clip, plainTheme, renderEvent, sanitize, type LineTheme } from "../../lib/render.ts";

const tagged: LineTheme = { dim: (t) => `<dim>${t}</dim>`, error: (t) => `<error>${t}</error>`, warn: (t) => `<warn>${t}</warn>`, toolName: (t) => `<tool>${t}</tool>` };

test("one line per tool event, the same words in the REPL and headless text mode", () => {
  const denied = { type: "tool-denied", id: "c1", tool: "bash", subject: "rm -rf build", reason: "the user denied this call." } as const;
  expect(renderEvent(denied, plainTheme)).toBe("  ⊘ bash rm -rf build not run: the user denied this call.");
  expect(renderEvent(denied, tagged)).toBe("<warn>  ⊘ bash rm -rf build not run: the user denied this call.</warn>");
  expect(renderEvent({ type: "tool-call", id: "c2", tool: "read_file", input: {}, subject: "src/a.ts" }, tagged)).toBe("<dim>→</dim> <tool>read_file</tool> src/a.ts");
  expect(renderEvent({ type: "tool-result", id: "c2", tool: "read_file", summary: "42 lines", output: "" })).toBe("  ✓ read_file: 42 lines");
  expect(renderEvent({ type: "tool-error", id: "c3", tool: "edit_file", error: "x".repeat(400) })!.length).toBe("  ✗ edit_file: ".length + 300);
  expect(renderEvent({ type: "text", text: "hi" })).toBeUndefined();
});

test("text from the model cannot reach the terminal as an escape sequence", () => {
  expect(sanitize("a\x1b[31mred\x1b[0m\r\nb\tc\x07\x9b")).toBe("ared\nb    c");
  expect(clip("  git\x1b[2J  status\n--short ")).toBe("git status --short");
  expect(clip("y".repeat(150))).toBe("y".repeat(99) + "…");
});
