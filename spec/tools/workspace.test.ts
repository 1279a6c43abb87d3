import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileTool } from "../../lib/tools/read-file.ts";
import { writeFileTool } from "../../lib/tools/write-file.ts";
import { displayPath, resolveInWorkspace } from "../../lib/fs/workspace.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
let outside: string;
beforeEach(() => {
  ws = makeWorkspace();
  outside = mkdtempSync(join(tmpdir(), "shiro-outside-"));
  writeFileSync(join(outside, "secret.txt"), "not yours\n");
});
afterEach(() => {
  ws.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe("resolveInWorkspace", () => {
  test("resolves relative paths against cwd, which may be below root", () => {
    mkdirSync(ws.path("pkg"));
    const ctx = { root: ws.root, cwd: ws.path("pkg") };
    expect(resolveInWorkspace(ctx, "src/a.ts")).toBe(ws.path("pkg/src/a.ts"));
    expect(resolveInWorkspace(ctx, "../README.md")).toBe(ws.path("README.md"));
    expect(resolveInWorkspace(ctx, ws.path("x"))).toBe(ws.path("x"));
  });

  test("refuses .. escapes and absolute paths elsewhere, naming the root", () => {
    expect(() => resolveInWorkspace(ws.ctx, "../x")).toThrow(`path ../x is outside the workspace; shiro only works on files under ${ws.root}.`);
    expect(() => resolveInWorkspace(ws.ctx, "/etc/passwd")).toThrow("outside the workspace");
    expect(() => resolveInWorkspace(ws.ctx, "a/../../x")).toThrow("outside the workspace");
    // A sibling whose name merely starts with the root's name is still outside.
    expect(() => resolveInWorkspace(ws.ctx, `${ws.root}-other/x`)).toThrow("outside the workspace");
  });

  test("refuses symlinks that lead outside, also for files not created yet below them", () => {
    symlinkSync(outside, ws.path("out"));
    symlinkSync(join(outside, "secret.txt"), ws.path("secret-link"));
    expect(() => resolveInWorkspace(ws.ctx, "out/secret.txt")).toThrow(/leads through a symlink to .*outside the workspace/);
    expect(() => resolveInWorkspace(ws.ctx, "out/new/file.txt")).toThrow("outside the workspace");
    expect(() => resolveInWorkspace(ws.ctx, "secret-link")).toThrow("outside the workspace");
  });

  test("allows symlinks that stay inside and refuses broken ones", () => {
    ws.write({ "real/a.txt": "a" });
    symlinkSync(ws.path("real"), ws.path("alias"));
    expect(resolveInWorkspace(ws.ctx, "alias/a.txt")).toBe(ws.path("alias/a.txt"));
    symlinkSync(join(outside, "gone"), ws.path("dangling"));
    expect(() => resolveInWorkspace(ws.ctx, "dangling")).toThrow("broken symlink");
  });

  test("displayPath is relative to cwd", () => {
    expect(displayPath({ cwd: ws.root }, ws.path("src/a.ts"))).toBe("src/a.ts");
    expect(displayPath({ cwd: ws.root }, ws.root)).toBe(".");
    expect(displayPath({ cwd: ws.path("pkg") }, ws.path("a.ts"))).toBe("../a.ts");
  });
});

describe("tools refuse paths outside the workspace", () => {
  test("read_file ../x, /etc/passwd and a symlink out", async () => {
    symlinkSync(join(outside, "secret.txt"), ws.path("link.txt"));
    for (const path of ["../x", "/etc/passwd", "link.txt"]) {
      const message = await errorOf(runTool(readFileTool, { path }, ws.ctx));
      expect(message).toStartWith(`read_file: path ${path} `);
      expect(message).toContain(`shiro only works on files under ${ws.root}`);
    }
  });

  test("write_file through a symlinked folder does not create the file outside", async () => {
    symlinkSync(outside, ws.path("out"));
    expect(await errorOf(runTool(writeFileTool, { path: "out/planted.txt", content: "x" }, ws.ctx))).toContain("outside the workspace");
    expect(await Bun.file(join(outside, "planted.txt")).exists()).toBe(false);
  });
});
