import { expect, test } from "bun:test";
import { callContext, clip, outcomeOfSummary, plainTheme, renderEvent, sanitize, userFacingError, type LineTheme } from "../../lib/render.ts";

const tagged: LineTheme = {
  dim: (t) => `<dim>${t}</dim>`,
  error: (t) => `<error>${t}</error>`,
  warn: (t) => `<warn>${t}</warn>`,
  toolName: (t) => `<tool>${t}</tool>`,
  ok: (t) => `<ok>${t}</ok>`,
  stopped: (t) => `<stopped>${t}</stopped>`,
};

test("one line per tool event, the same words in the REPL and headless text mode", () => {
  const denied = { type: "tool-denied", id: "c1", tool: "bash", subject: "rm -rf build", reason: "the user denied this call." } as const;
  expect(renderEvent(denied, plainTheme)).toBe("  ⊘ bash rm -rf build not run: the user denied this call.");
  expect(renderEvent(denied, tagged)).toBe("<warn>  ⊘ bash rm -rf build not run: the user denied this call.</warn>");
  // The model's long reason stays off the user's line when the denial has its few words.
  const headless = { ...denied, tool: "write_file", subject: "h.txt", reason: "write_file needs the user's approval, and shiro is running headless …", shown: "headless without --yolo" } as const;
  expect(renderEvent(headless, plainTheme)).toBe("  ⊘ write_file h.txt: not run (headless without --yolo)");
  expect(renderEvent({ type: "tool-call", id: "c2", tool: "read_file", input: {}, subject: "src/a.ts" }, tagged)).toBe("<dim>→</dim> <tool>read_file</tool> src/a.ts");
  expect(renderEvent({ type: "tool-result", id: "c2", tool: "read_file", summary: "42 lines", output: "" })).toBe("  ✓ read_file: 42 lines");
  expect(renderEvent({ type: "tool-error", id: "c3", tool: "edit_file", error: "x".repeat(400) })!.length).toBe("  ✗ edit_file: ".length + 300);
  expect(renderEvent({ type: "text", text: "hi" })).toBeUndefined();
});

test("a file tool's result line names its path as bash's names its command, the path clipped at its start", () => {
  const result = (tool: string, summary: string) => ({ type: "tool-result", id: "c", tool, summary, output: "" }) as const;
  expect(renderEvent(result("edit_file", "+1 -1"), plainTheme, callContext("path", "src/a.ts"))).toBe("  ✓ edit_file: +1 -1 · src/a.ts");
  expect(renderEvent(result("write_file", "created, 2 lines"), plainTheme, callContext("path", "b.txt"))).toBe("  ✓ write_file: created, 2 lines · b.txt");
  expect(renderEvent(result("bash", "exit 0"), plainTheme, callContext("command", "echo hi"))).toBe("  ✓ bash: exit 0 · echo hi");
  // A search names its pattern as list_dir names its path; a text subject (a URL, a note) is not repeated.
  expect(renderEvent(result("glob", "1 file"), plainTheme, callContext("pattern", "src/**/*.ts"))).toBe("  ✓ glob: 1 file · src/**/*.ts");
  expect(renderEvent(result("grep", "3 matches"), plainTheme, callContext("pattern", "TODO"))).toBe("  ✓ grep: 3 matches · TODO");
  expect(renderEvent(result("web_fetch", "200, 3 KB"), plainTheme, callContext("text", "https://example.com"))).toBe("  ✓ web_fetch: 200, 3 KB");
  const deep = `src/${"nested/".repeat(12)}component.ts`;
  const line = renderEvent(result("read_file", "42 lines"), plainTheme, callContext("path", deep));
  expect(line).toEndWith("/component.ts");
  expect(line).toContain(" · …");
  expect(line.length).toBeLessThanOrEqual("  ✓ read_file: 42 lines · ".length + 60);
  // An error that names the path already is not followed by it again.
  const missing = { type: "tool-error", id: "c", tool: "read_file", error: "read_file: a.ts does not exist. Use glob." } as const;
  expect(renderEvent(missing, plainTheme, callContext("path", "a.ts"))).toBe("  ✗ read_file: no such file a.ts");
  const refused = { type: "tool-error", id: "c", tool: "edit_file", error: "the old text is not in the file" } as const;
  expect(renderEvent(refused, plainTheme, callContext("path", "b.py"))).toBe("  ✗ edit_file: the old text is not in the file · b.py");
});

test("marks tell how a call ended: exit 0, exit 1, timed out, interrupted, error, denied", () => {
  const result = (summary: string) => ({ type: "tool-result", id: "c", tool: "bash", summary, output: "" }) as const;
  expect(renderEvent(result("exit 0"), tagged, { command: "bun test" })).toBe("<dim>  ✓ bash: exit 0 · bun test</dim>");
  expect(renderEvent(result("exit 1"), tagged, { command: "bun test" })).toBe("<error>  ✗ bash: exit 1 · bun test</error>");
  expect(renderEvent(result("timed out after 120s"), tagged)).toBe("<error>  ✗ bash: timed out after 120s</error>");
  expect(renderEvent(result("killed by SIGKILL"), tagged)).toBe("<error>  ✗ bash: killed by SIGKILL</error>");
  expect(renderEvent(result("interrupted"), tagged)).toBe("<stopped>  ■ bash: interrupted</stopped>");
  expect(renderEvent({ type: "tool-error", id: "c", tool: "bash", error: "bash: not run, because the turn was interrupted before it started." }, tagged)).toBe(
    "<stopped>  ■ bash: not run, because the turn was interrupted before it started</stopped>",
  );
  expect(outcomeOfSummary("exit 10")).toBe("failed");
  expect(outcomeOfSummary("exit 0")).toBe("ok");
  expect(outcomeOfSummary("42 lines")).toBe("ok");
});

test("error lines are written for the user, not copied from what the model reads", () => {
  expect(userFacingError("read_file", "read_file: src/a.ts does not exist. Use glob or list_dir to find the right path.")).toBe("no such file src/a.ts");
  expect(userFacingError("read_file", "read_file: src/a.ts does not exist. Did you mean src/b.ts?")).toBe("no such file src/a.ts");
  expect(userFacingError("list_dir", "list_dir: notes.txt is a file. Use read_file to read it.")).toBe("notes.txt is a file");
  expect(userFacingError("bash", "bash: invalid arguments (command: must not be empty). Check the tool's parameters and call it again.")).toBe(
    "invalid arguments (command: must not be empty)",
  );
  expect(renderEvent({ type: "tool-error", id: "c", tool: "read_file", error: "read_file: a.ts does not exist. Use glob." })).toBe("  ✗ read_file: no such file a.ts");
});

test("text from the model cannot reach the terminal as an escape sequence", () => {
  expect(sanitize("a\x1b[31mred\x1b[0m\r\nb\tc\x07\x9b")).toBe("ared\nb    c");
  expect(clip("  git\x1b[2J  status\n--short ")).toBe("git status --short");
  expect(clip("y".repeat(150))).toBe("y".repeat(99) + "…");
});

test("a notice or an error (a provider's body, a server's words) reaches the terminal without escape sequences", () => {
  expect(renderEvent({ type: "notice", message: "retrying: \x1b]0;owned\x07the \x1b[2Jserver said no" }, tagged)).toBe("<warn>note: retrying: the server said no</warn>");
  expect(renderEvent({ type: "error", message: "provider returned 500: \x1b[8mhidden\x1b[28m" }, tagged)).toBe("<error>error: provider returned 500: hidden</error>");
});
