import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { globTool, MAX_GLOB_RESULTS } from "../../lib/tools/glob.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write({
    ".gitignore": "dist/\n*.gen.ts\n",
    "index.ts": "",
    "src/a.ts": "",
    "src/b.tsx": "",
    "src/lib/c.ts": "",
    "src/lib/types.gen.ts": "",
    "dist/out.ts": "",
    "node_modules/dep/index.ts": "",
    ".git/hooks/x.ts": "",
    ".config/tool.ts": "",
  });
});
afterEach(() => ws.cleanup());

const glob = (input: unknown) => runTool(globTool, input, ws.ctx);
const listed = async (input: unknown) => (await glob(input)).output.split("\n").sort();

/** Gives files distinct modification times, oldest first. */
function age(paths: string[]): void {
  paths.forEach((rel, i) => utimesSync(ws.path(rel), 1_000_000 + i, 1_000_000 + i));
}

describe("glob", () => {
  test("** finds files at any depth, skipping .git, node_modules and .gitignore'd files; hidden folders included", async () => {
    expect(await listed({ pattern: "**/*.ts" })).toEqual([".config/tool.ts", "index.ts", "src/a.ts", "src/lib/c.ts"]);
  });

  test("lists newest first", async () => {
    age(["src/lib/c.ts", "index.ts", "src/a.ts"]);
    const result = await glob({ pattern: "**/*.ts", path: "src" });
    expect(result).toEqual({ output: "src/a.ts\nsrc/lib/c.ts", summary: "2 files" });
    age(["src/a.ts", "src/lib/c.ts"]);
    expect((await glob({ pattern: "**/*.ts", path: "src" })).output).toBe("src/lib/c.ts\nsrc/a.ts");
  });

  test("* stays in one folder, and an empty result hints at **", async () => {
    expect((await glob({ pattern: "*.ts" })).output).toBe("index.ts");
    const none = await glob({ pattern: "*.tsx" });
    expect(none).toEqual({
      output: 'No files match "*.tsx" in the working directory. Patterns match from path down, so "*" stays in one folder; try "**/*.tsx".',
      summary: "no files",
    });
  });

  test("paths are shown relative to cwd, and braces work", async () => {
    const ctx = { ...ws.ctx, cwd: ws.path("src") };
    const result = await runTool(globTool, { pattern: "*.{ts,tsx}" }, ctx);
    expect(result.output.split("\n").sort()).toEqual(["a.ts", "b.tsx"]);
    expect((await runTool(globTool, { pattern: "*.ts", path: ".." }, ctx)).output).toBe("../index.ts");
  });

  test("a pattern whose fixed folders name an ignored folder looks inside it", async () => {
    expect(await listed({ pattern: "node_modules/dep/*.ts" })).toEqual(["node_modules/dep/index.ts"]);
    expect(await listed({ pattern: "dist/**" })).toEqual(["dist/out.ts"]);
  });

  test(`caps the list at ${MAX_GLOB_RESULTS} with a note`, async () => {
    mkdirSync(ws.path("many"));
    for (let i = 0; i < MAX_GLOB_RESULTS + 5; i++) writeFileSync(ws.path(`many/f${i}.txt`), "");
    const result = await glob({ pattern: "many/*.txt" });
    expect(result.output.split("\n").filter((line) => line.startsWith("many/"))).toHaveLength(MAX_GLOB_RESULTS);
    expect(result.output).toEndWith(`[Showing the ${MAX_GLOB_RESULTS} most recently modified of ${MAX_GLOB_RESULTS + 5} matching files. Narrow the pattern or path to see the others.]`);
    expect(result.summary).toBe(`${MAX_GLOB_RESULTS + 5} files`);
  });

  test("refuses patterns that climb out, paths outside, and a file as path", async () => {
    expect(await errorOf(glob({ pattern: "../*" }))).toContain('must be relative to path, without ".."');
    expect(await errorOf(glob({ pattern: "/etc/*" }))).toContain("must be relative to path");
    expect(await errorOf(glob({ pattern: "*", path: "/etc" }))).toContain("outside the workspace");
    expect(await errorOf(glob({ pattern: "*", path: "index.ts" }))).toBe("glob: index.ts is a file; pass the directory to search in as path.");
    expect(await errorOf(glob({ pattern: "*", path: "srcc" }))).toBe("glob: srcc does not exist. Did you mean src?");
  });

  test("invalid arguments", async () => {
    expect(await errorOf(glob({ path: "src" }))).toStartWith("glob: invalid arguments (pattern:");
  });
});
