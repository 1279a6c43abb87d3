import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { matchIgnoreRules, parseGitignore } from "../../lib/fs/ignore.ts";
import { createIgnoreFilter } from "../../lib/fs/ignore-filter.ts";
import { walk } from "../../lib/fs/walk.ts";
import { makeWorkspace, type Workspace } from "./fixture.ts";

/** Whether `path` is ignored by a one-file .gitignore holding `text`. */
function ignored(text: string, path: string, isDir = false): boolean {
  return matchIgnoreRules(parseGitignore(text), path, isDir) ?? false;
}

describe("gitignore patterns", () => {
  test("a name without a slash matches at any depth", () => {
    expect(ignored("*.log", "debug.log")).toBe(true);
    expect(ignored("*.log", "a/b/debug.log")).toBe(true);
    expect(ignored("*.log", "debug.log.txt")).toBe(false);
    expect(ignored("build", "pkg/build", true)).toBe(true);
  });

  test("a leading or middle slash anchors the pattern to the .gitignore's folder", () => {
    expect(ignored("/dist", "dist", true)).toBe(true);
    expect(ignored("/dist", "pkg/dist", true)).toBe(false);
    expect(ignored("docs/*.md", "docs/a.md")).toBe(true);
    expect(ignored("docs/*.md", "x/docs/a.md")).toBe(false);
    expect(ignored("docs/*.md", "docs/sub/a.md")).toBe(false);
  });

  test("a trailing slash matches directories only", () => {
    expect(ignored("out/", "out", true)).toBe(true);
    expect(ignored("out/", "out", false)).toBe(false);
    expect(ignored("out/", "src/out", true)).toBe(true);
  });

  test("** leading, trailing and in the middle", () => {
    expect(ignored("**/cache", "a/b/cache", true)).toBe(true);
    expect(ignored("**/cache", "cache", true)).toBe(true);
    expect(ignored("logs/**", "logs/a/b.txt")).toBe(true);
    expect(ignored("logs/**", "logs", true)).toBe(false);
    expect(ignored("a/**/z.txt", "a/z.txt")).toBe(true);
    expect(ignored("a/**/z.txt", "a/b/c/z.txt")).toBe(true);
    expect(ignored("a/**/z.txt", "b/a/z.txt")).toBe(false);
  });

  test("negation re-includes, and the last matching rule wins", () => {
    const text = "*.env\n!keep.env\n";
    expect(ignored(text, "prod.env")).toBe(true);
    expect(ignored(text, "keep.env")).toBe(false);
    expect(ignored("!keep.env\n*.env\n", "keep.env")).toBe(true);
  });

  test("comments, blank lines, escapes, ? and character classes", () => {
    expect(parseGitignore("# comment\n\n   \n")).toHaveLength(0);
    expect(ignored("\\#notes", "#notes")).toBe(true);
    expect(ignored("\\!important", "!important")).toBe(true);
    expect(ignored("file?.txt", "file1.txt")).toBe(true);
    expect(ignored("file?.txt", "file10.txt")).toBe(false);
    expect(ignored("[ab].txt", "a.txt")).toBe(true);
    expect(ignored("[!ab].txt", "a.txt")).toBe(false);
    expect(ignored("[!ab].txt", "c.txt")).toBe(true);
    expect(ignored("a.txt  ", "a.txt")).toBe(true);
    expect(ignored("a.c++", "a.c++")).toBe(true);
    expect(ignored("*.txt\r\n", "a.txt")).toBe(true);
  });
});

describe("walking with .gitignore files", () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write({
      ".gitignore": "*.log\n/dist/\nsecret/\n!important.log\n",
      "dist/bundle.js": "",
      "src/app.ts": "",
      "src/dist/keep.ts": "", // /dist/ is anchored to the root
      "src/debug.log": "",
      "src/important.log": "",
      "src/.gitignore": "generated/\n!debug.log\n",
      "src/generated/x.ts": "",
      "secret/key.txt": "",
      "node_modules/pkg/index.js": "",
      ".git/HEAD": "",
      "pkg/node_modules/dep.js": "",
      ".github/ci.yml": "",
    });
  });
  afterEach(() => ws.cleanup());

  const files = (start: string) =>
    [...walk(start, createIgnoreFilter(ws.root))].filter((e) => e.kind === "file").map((e) => e.rel);

  test("skips .git, node_modules and ignored entries, honouring nested files and negations", () => {
    expect(files(ws.root)).toEqual([
      ".github/ci.yml",
      ".gitignore",
      "src/.gitignore",
      "src/app.ts",
      "src/debug.log", // re-included by src/.gitignore
      "src/dist/keep.ts",
      "src/important.log",
    ]);
  });

  test("starting below the root still applies the root's rules", () => {
    expect(files(ws.path("src"))).toEqual([".gitignore", "app.ts", "debug.log", "dist/keep.ts", "important.log"]);
  });

  test("naming an ignored folder as the start looks inside it", () => {
    expect(files(ws.path("node_modules"))).toEqual(["pkg/index.js"]);
  });
});
