import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { editFileTool } from "../../lib/tools/edit-file.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const edit = (input: unknown) => runTool(editFileTool, input, ws.ctx);
const fileText = (rel: string) => readFileSync(ws.path(rel), "utf8");

describe("edit_file", () => {
  test("replaces a unique exact match and reports line changes", async () => {
    ws.write({ "src/a.ts": "function a() {\n  return 1;\n}\n" });
    const result = await edit({ path: "src/a.ts", oldString: "  return 1;", newString: "  const x = 1;\n  log(x);\n  return x;" });
    expect(result).toEqual({ output: "Edited src/a.ts: replaced 1 occurrence (+3 -1 lines).", summary: "+3 -1" });
    expect(fileText("src/a.ts")).toBe("function a() {\n  const x = 1;\n  log(x);\n  return x;\n}\n");
  });

  test("refuses an ambiguous match, saying how many there were, and leaves the file alone", async () => {
    ws.write({ "src/a.ts": "x = 1\nx = 1\nx = 1\n" });
    expect(await errorOf(edit({ path: "src/a.ts", oldString: "x = 1", newString: "x = 2" }))).toBe(
      "edit_file: oldString appears 3 times in src/a.ts. Add surrounding lines to make it unique, or set replaceAll to change every occurrence.",
    );
    expect(fileText("src/a.ts")).toBe("x = 1\nx = 1\nx = 1\n");
  });

  test("replaceAll changes every occurrence", async () => {
    ws.write({ "a.ts": "foo(); foo();\nfoo();\n" });
    const result = await edit({ path: "a.ts", oldString: "foo", newString: "bar", replaceAll: true });
    expect(result.output).toBe("Edited a.ts: replaced 3 occurrences (+2 -2 lines).");
    expect(fileText("a.ts")).toBe("bar(); bar();\nbar();\n");
  });

  test("a missing oldString says so and suggests reading the exact text", async () => {
    ws.write({ "a.ts": "  indented\n" });
    const message = await errorOf(edit({ path: "a.ts", oldString: "\tindented", newString: "x" }));
    expect(message).toStartWith("edit_file: oldString was not found in a.ts. Read the file with read_file");
    expect(message).toContain("whitespace");
  });

  test("oldString equal to newString is an error", async () => {
    ws.write({ "a.ts": "same\n" });
    expect(await errorOf(edit({ path: "a.ts", oldString: "same", newString: "same" }))).toBe(
      "edit_file: oldString and newString are identical, so there is nothing to change.",
    );
  });

  test("an empty oldString is rejected by validation and points to write_file", async () => {
    ws.write({ "a.ts": "x\n" });
    expect(await errorOf(edit({ path: "a.ts", oldString: "", newString: "y" }))).toContain("oldString must not be empty; to create a file");
  });

  test("newString is inserted literally, even with $& or $1 in it", async () => {
    ws.write({ "a.ts": "price = X\n" });
    await edit({ path: "a.ts", oldString: "X", newString: "$&$1 dollars" });
    expect(fileText("a.ts")).toBe("price = $&$1 dollars\n");
  });

  test("matches LF text against a CRLF file and keeps its line endings", async () => {
    ws.write({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    await edit({ path: "win.txt", oldString: "one\ntwo", newString: "uno\ndos" });
    expect(fileText("win.txt")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  test("a missing file points to write_file; a binary file is refused", async () => {
    expect(await errorOf(edit({ path: "nope.ts", oldString: "a", newString: "b" }))).toBe(
      "edit_file: nope.ts does not exist. Use glob or list_dir to find the right path. To create a new file use write_file.",
    );
    ws.write({ "b.bin": new Uint8Array([97, 0, 98]) });
    expect(await errorOf(edit({ path: "b.bin", oldString: "a", newString: "c" }))).toContain("is a binary file");
  });
});
