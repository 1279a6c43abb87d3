import { afterEach, beforeEach, expect, test } from "bun:test";
import { editFileTool } from "../../lib/tools/edit-file.ts";
import { multiEditTool } from "../../lib/tools/multi-edit.ts";
import { writeFileTool } from "../../lib/tools/write-file.ts";
import { makeWorkspace, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

test("edit_file previews the file before and after its edit, and writes nothing", () => {
  ws.write({ "src/a.ts": "const a = 1;\n" });
  const preview = editFileTool.preview!({ path: "./src/a.ts", oldString: "1", newString: "2" }, ws.ctx);
  expect(preview).toEqual({ type: "change", path: "src/a.ts", before: "const a = 1;\n", after: "const a = 2;\n" });
  expect(Bun.file(ws.path("src/a.ts")).size).toBe(13);
});

test("multi_edit applies its edits in order, and names the one that will fail", () => {
  ws.write({ "a.txt": "one two\n" });
  const edits = [
    { oldString: "one", newString: "1" },
    { oldString: "two", newString: "2" },
  ];
  expect(multiEditTool.preview!({ path: "a.txt", edits }, ws.ctx)).toMatchObject({ type: "change", after: "1 2\n" });
  expect(multiEditTool.preview!({ path: "a.txt", edits: [...edits, { oldString: "one", newString: "x" }] }, ws.ctx)).toEqual({
    type: "fails",
    path: "a.txt",
    why: expect.stringMatching(/^edit 3: oldString was not found in the file\./),
  });
});

test("write_file previews a new file with nothing before it; an edit of a missing file has no preview", () => {
  expect(writeFileTool.preview!({ path: "new.txt", content: "x\n" }, ws.ctx)).toEqual({ type: "change", path: "new.txt", before: undefined, after: "x\n" });
  expect(editFileTool.preview!({ path: "gone.txt", oldString: "a", newString: "b" }, ws.ctx)).toMatchObject({ type: "unavailable", path: "gone.txt" });
  expect(writeFileTool.preview!({ path: "../out.txt", content: "" }, ws.ctx)).toMatchObject({ type: "unavailable", why: expect.stringContaining("outside the workspace") });
});
