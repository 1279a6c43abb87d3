import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { listDirTool, MAX_LIST_ENTRIES } from "../../lib/tools/list-dir.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write({
    ".gitignore": "build/\n",
    "README.md": "",
    "src/index.ts": "",
    "src/lib/deep.ts": "",
    "build/out.js": "",
    "node_modules/x/index.js": "",
    ".git/HEAD": "",
  });
});
afterEach(() => ws.cleanup());

const list = (input: unknown) => runTool(listDirTool, input, ws.ctx);

describe("list_dir", () => {
  test("shows a two-level tree by default, directories marked with /, ignored entries hidden", async () => {
    const result = await list({});
    expect(result.output).toBe(["./", "  .gitignore", "  README.md", "  src/", "    index.ts", "    lib/"].join("\n"));
    expect(result.summary).toBe("5 entries");
  });

  test("depth controls how far it goes; path picks the folder", async () => {
    expect((await list({ depth: 1 })).output).toBe("./\n  .gitignore\n  README.md\n  src/");
    expect((await list({ path: "src", depth: 3 })).output).toBe("src/\n  index.ts\n  lib/\n    deep.ts");
  });

  test("shows where symlinks point", async () => {
    symlinkSync("README.md", ws.path("src/readme-link"));
    expect((await list({ path: "src", depth: 1 })).output).toContain("  readme-link -> README.md");
  });

  test("an explicitly named ignored folder can be listed", async () => {
    expect((await list({ path: "build" })).output).toBe("build/\n  out.js");
  });

  test(`stops at ${MAX_LIST_ENTRIES} entries with a note`, async () => {
    mkdirSync(ws.path("many"));
    for (let i = 0; i < MAX_LIST_ENTRIES + 1; i++) writeFileSync(ws.path(`many/f${String(i).padStart(4, "0")}`), "");
    const result = await list({ path: "many" });
    expect(result.output.split("\n").filter((line) => line.startsWith("  f"))).toHaveLength(MAX_LIST_ENTRIES);
    expect(result.output).toEndWith(`[Stopped at ${MAX_LIST_ENTRIES} entries. List a subdirectory, or pass a smaller depth, to see the rest.]`);
    expect(result.summary).toBe(`over ${MAX_LIST_ENTRIES} entries`);
  });

  test("an empty folder says so; a file or missing path is an error", async () => {
    mkdirSync(ws.path("empty"));
    expect((await list({ path: "empty" })).output).toBe("empty/\n  (empty, or everything in it is ignored)");
    expect(await errorOf(list({ path: "README.md" }))).toBe("list_dir: README.md is a file. Use read_file to read it.");
    expect(await errorOf(list({ path: "sr" }))).toBe("list_dir: sr does not exist. Did you mean src?");
    expect(await errorOf(list({ path: "../.." }))).toContain("outside the workspace");
  });

  test("rejects a depth out of range", async () => {
    expect(await errorOf(list({ depth: 0 }))).toStartWith("list_dir: invalid arguments (depth:");
    expect(await errorOf(list({ depth: 11 }))).toStartWith("list_dir: invalid arguments (depth:");
  });
});
