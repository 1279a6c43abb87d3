import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { writeFileTool } from "../../lib/tools/write-file.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const write = (input: unknown) => runTool(writeFileTool, input, ws.ctx);

describe("write_file", () => {
  test("creates a file and its missing folders, and says so with the line count", async () => {
    const result = await write({ path: "src/deep/new.ts", content: "a\nb\nc\n" });
    expect(result).toEqual({ output: "Created src/deep/new.ts (3 lines).", summary: "created, 3 lines" });
    expect(readFileSync(ws.path("src/deep/new.ts"), "utf8")).toBe("a\nb\nc\n");
  });

  test("overwrites an existing file, keeping its permission bits and leaving no temp file", async () => {
    ws.write({ "run.sh": "old\n" });
    chmodSync(ws.path("run.sh"), 0o755);
    const result = await write({ path: "run.sh", content: "#!/bin/sh\necho hi" });
    expect(result).toEqual({ output: "Overwrote run.sh (2 lines).", summary: "overwrote, 2 lines" });
    expect(readFileSync(ws.path("run.sh"), "utf8")).toBe("#!/bin/sh\necho hi");
    expect(statSync(ws.path("run.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(ws.root)).toEqual(["run.sh"]);
  });

  test("writes through a symlink inside the workspace instead of replacing the link", async () => {
    ws.write({ "real.txt": "old" });
    symlinkSync(ws.path("real.txt"), ws.path("alias.txt"));
    await write({ path: "alias.txt", content: "new" });
    expect(readFileSync(ws.path("real.txt"), "utf8")).toBe("new");
  });

  test("an empty file has 0 lines", async () => {
    expect((await write({ path: "empty", content: "" })).summary).toBe("created, 0 lines");
  });

  test("refuses to write over a directory", async () => {
    mkdirSync(ws.path("src"));
    expect(await errorOf(write({ path: "src", content: "x" }))).toBe("write_file: src is a directory. Give the path of a file inside it.");
  });

  test("invalid arguments name the missing field", async () => {
    expect(await errorOf(write({ path: "a.txt" }))).toStartWith("write_file: invalid arguments (content:");
  });
});
