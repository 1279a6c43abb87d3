import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyCompletion, commonPrefix, findCompletion } from "../../lib/prompt/complete.ts";
import { tempDir } from "../support/cli.ts";

function workspace(): string {
  const root = tempDir();
  mkdirSync(join(root, "src", "agent"), { recursive: true });
  mkdirSync(join(root, "node_modules", "pkg"), { recursive: true });
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "dist/\n*.log\n");
  writeFileSync(join(root, "src", "main.ts"), "");
  writeFileSync(join(root, "src", "math.ts"), "");
  writeFileSync(join(root, "src", "agent", "conversation.ts"), "");
  writeFileSync(join(root, "README.md"), "");
  writeFileSync(join(root, "debug.log"), "");
  writeFileSync(join(root, ".env"), "");
  return root;
}

describe("slash command completion", () => {
  test("completes the first word when it starts with /", () => {
    expect(findCompletion("/he", 3, { root: "/", cwd: "/" })).toEqual({ kind: "command", start: 0, end: 3, candidates: ["/help"] });
    expect(findCompletion("/c", 2, { root: "/", cwd: "/" })?.candidates).toEqual(["/compact", "/cost", "/clear"]);
  });

  test("not after the first word, and not for unknown prefixes", () => {
    expect(findCompletion("/model gp", 9, { root: "/", cwd: "/" })).toBeUndefined();
    expect(findCompletion("/zz", 3, { root: "/", cwd: "/" })).toBeUndefined();
  });

  test("a finished command gets a trailing space", () => {
    const completion = findCompletion("/he", 3, { root: "/", cwd: "/" })!;
    expect(applyCompletion("/he", completion, "/help")).toEqual({ line: "/help ", cursor: 6 });
  });
});

describe("@path completion", () => {
  test("lists the directory, honouring .gitignore, .git and node_modules; no dot files by default", () => {
    const root = workspace();
    const found = findCompletion("look at @", 9, { root, cwd: root })!;
    expect(found.kind).toBe("path");
    expect(found.candidates).toEqual(["@README.md", "@src/"]);
  });

  test("completes inside directories", () => {
    const root = workspace();
    expect(findCompletion("@src/m", 6, { root, cwd: root })!.candidates).toEqual(["@src/main.ts", "@src/math.ts"]);
    expect(findCompletion("@src/a", 6, { root, cwd: root })!.candidates).toEqual(["@src/agent/"]);
  });

  test("dot files only when the name typed starts with a dot", () => {
    const root = workspace();
    expect(findCompletion("@.e", 3, { root, cwd: root })!.candidates).toEqual(["@.env"]);
  });

  test("a bare name also finds files deeper in the workspace", () => {
    const root = workspace();
    expect(findCompletion("@conv", 5, { root, cwd: root })!.candidates).toEqual(["@src/agent/conversation.ts"]);
  });

  test("@ only at the start of a word", () => {
    const root = workspace();
    expect(findCompletion("mail me@src", 11, { root, cwd: root })).toBeUndefined();
    expect(findCompletion("no at sign", 10, { root, cwd: root })).toBeUndefined();
  });

  test("never outside the workspace", () => {
    const root = workspace();
    expect(findCompletion("@../", 4, { root, cwd: root })).toBeUndefined();
  });

  test("a directory is completed without a space so Tab can go on; a file with one", () => {
    const root = workspace();
    const dir = findCompletion("see @sr", 7, { root, cwd: root })!;
    expect(applyCompletion("see @sr", dir, "@src/")).toEqual({ line: "see @src/", cursor: 9 });
    const file = findCompletion("see @src/main please", 13, { root, cwd: root })!;
    expect(applyCompletion("see @src/main please", file, "@src/main.ts")).toEqual({ line: "see @src/main.ts please", cursor: 17 });
  });
});

test("commonPrefix", () => {
  expect(commonPrefix(["@src/main.ts", "@src/math.ts"])).toBe("@src/ma");
  expect(commonPrefix([])).toBe("");
});

describe("MCP resource completion", () => {
  const resources = () => [{ server: "docs", uris: ["docs://guide", "docs://glossary", "docs://logo.png"] }];
  test("@ offers the servers with resources beside the paths, as @server: with no space after; then the server's URIs that start as typed", () => {
    const root = workspace();
    const opts = { root, cwd: root, resources };
    expect(findCompletion("see @do", 7, opts)?.candidates).toEqual(["@docs:"]);
    expect(applyCompletion("see @do", findCompletion("see @do", 7, opts)!, "@docs:")).toEqual({ line: "see @docs:", cursor: 10 });
    expect(findCompletion("see @docs:docs://g", 18, opts)?.candidates).toEqual(["@docs:docs://guide", "@docs:docs://glossary"]);
    expect(applyCompletion("see @docs:docs://gu", findCompletion("see @docs:docs://gu", 19, opts)!, "@docs:docs://guide").line).toBe("see @docs:docs://guide ");
    expect(findCompletion("@src", 4, opts)?.candidates).toEqual(["@src/"]); // paths as before
    expect(findCompletion("@other:x", 8, opts)).toBeUndefined();
  });

  test("a listed URI with a space or an escape sequence in it is not offered", () => {
    const root = workspace();
    const opts = { root, cwd: root, resources: () => [{ server: "docs", uris: ["docs://a b", "docs://c\x1b[2J", "docs://ok"] }] };
    expect(findCompletion("@docs:docs://", 13, opts)?.candidates).toEqual(["@docs:docs://ok"]);
  });
});
