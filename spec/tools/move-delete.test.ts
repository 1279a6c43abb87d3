import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { deleteFileTool } from "../../lib/tools/delete-file.ts";
import { moveFileTool } from "../../lib/tools/move-file.ts";
import type { FileJournal } from "../../lib/tools/define.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
let recorded: string[];
beforeEach(() => {
  ws = makeWorkspace();
  recorded = [];
  const journal: FileJournal = { before: async (abs) => void recorded.push(abs) };
  ws.ctx.journal = journal;
});
afterEach(() => ws.cleanup());

const move = (from: string, to: string) => runTool(moveFileTool, { from, to }, ws.ctx);
const del = (path: string) => runTool(deleteFileTool, { path }, ws.ctx);

describe("move_file", () => {
  test("moves a file, creating the target folder, and tells the journal both ends first", async () => {
    ws.write({ "a.txt": "one\n" });
    const result = await move("a.txt", "deep/er/b.txt");
    expect(result.output).toBe("Moved a.txt to deep/er/b.txt (created deep/).");
    expect(readFileSync(ws.path("deep/er/b.txt"), "utf8")).toBe("one\n");
    expect(existsSync(ws.path("a.txt"))).toBe(false);
    expect(recorded).toEqual([ws.path("a.txt"), ws.path("deep/er/b.txt")]);
  });

  test("refuses a missing source, an occupied target, a directory, a secrets file and an escape", async () => {
    ws.write({ "a.txt": "1", "b.txt": "2", "dir/x": "x", ".env": "K=1" });
    expect(await errorOf(move("nope.txt", "c.txt"))).toContain("nope.txt does not exist");
    expect(await errorOf(move("a.txt", "b.txt"))).toBe("move_file: b.txt already exists. Delete it first (delete_file) or pick another name.");
    expect(await errorOf(move("dir", "dir2"))).toContain("dir is a directory; move_file works on files only");
    expect(await errorOf(move(".env", "env.txt"))).toContain(".env is a secrets file");
    expect(await errorOf(move("a.txt", "../out.txt"))).toContain("outside the workspace");
    expect(readFileSync(ws.path("b.txt"), "utf8")).toBe("2");
    expect(recorded).toEqual([]);
  });

  test("its subject shows both ends and permissions see each path", () => {
    expect(moveFileTool.subject.of({ from: "a", to: "b" })).toBe("a → b");
    expect(moveFileTool.subject.paths!({ from: "a", to: "b" })).toEqual(["a", "b"]);
  });
});

describe("delete_file", () => {
  test("deletes one file and reports what it removed", async () => {
    ws.write({ "a.txt": "one\ntwo\n", "bin.dat": new Uint8Array([0, 1, 2]) });
    expect((await del("a.txt")).output).toBe("Deleted a.txt (2 lines).");
    expect((await del("bin.dat")).output).toBe("Deleted bin.dat (3 bytes).");
    expect(existsSync(ws.path("a.txt"))).toBe(false);
    expect(recorded).toEqual([ws.path("a.txt"), ws.path("bin.dat")]);
  });

  test("refuses folders, missing files, symlinks and secrets files", async () => {
    mkdirSync(ws.path("dir"));
    ws.write({ "t.txt": "x", "key.pem": "k" });
    symlinkSync(ws.path("t.txt"), ws.path("link"));
    expect(await errorOf(del("dir"))).toContain("dir is a directory; delete_file works on files only");
    expect(await errorOf(del("missing.txt"))).toContain("missing.txt does not exist");
    expect(await errorOf(del("link"))).toContain("link is not a regular file");
    expect(await errorOf(del("key.pem"))).toContain("key.pem is a secrets file");
    expect(existsSync(ws.path("t.txt"))).toBe(true);
  });

  test("its preview shows the text that goes", () => {
    ws.write({ "a.txt": "bye\n" });
    expect(deleteFileTool.preview!({ path: "a.txt" }, ws.ctx)).toEqual({ type: "delete", path: "a.txt", before: "bye\n" });
  });
});
