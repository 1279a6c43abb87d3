import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createGrepTool, grepTool, MAX_GREP_MATCHES } from "../../lib/tools/grep.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";
import { reportSkip, ripgrepMissing, ripgrepPath } from "../support/host-tools.ts";

// The same specification runs against both back ends. rg is optional: the ripgrep runs are
// skipped where it is not installed (saying so), and the built-in search must then give identical answers.
const rgPath = ripgrepPath();
reportSkip("spec/tools/grep.test.ts (the ripgrep back end)", ripgrepMissing(), "ripgrep is missing");
const backends = [
  { name: "built-in search", tool: createGrepTool({ findRipgrep: () => null }), skip: false },
  { name: "ripgrep", tool: createGrepTool({ findRipgrep: () => rgPath }), skip: rgPath === null },
];

const fixture: Record<string, string | Uint8Array> = {
  ".gitignore": "dist/\n*.min.js\n!keep.min.js\n",
  "src/app.ts": "import { foo } from './foo';\nexport function main() {\n  return foo(1);\n}\n",
  "src/foo.ts": "export function foo(n: number) {\n  return n + 1; // TODO: overflow\n}\n",
  "src/FOO.md": "# Foo\nfoo is documented here. todo\n",
  "src/nested/.gitignore": "generated.ts\n",
  "src/nested/generated.ts": "foo generated\n",
  "src/nested/real.ts": "const foo = 2;\r\n",
  "lib/a.min.js": "foo()\n",
  "lib/keep.min.js": "foo()\n",
  "dist/out.js": "foo\n",
  "node_modules/dep/index.js": "foo\n",
  ".git/config": "foo\n",
  ".env": "FOO_SECRET=foo\n",
  ".env.example": "FOO_SECRET=\n",
  ".hidden/notes.txt": "foo in hidden\n",
  "bin/blob.bin": new Uint8Array([0, 102, 111, 111, 10]),
  "a b/odd:name.txt": "foo: colon path\n",
};

for (const backend of backends) {
  describe.skipIf(backend.skip)(`grep (${backend.name})`, () => {
    let ws: Workspace;
    beforeEach(() => {
      ws = makeWorkspace();
      ws.write(fixture);
    });
    afterEach(() => ws.cleanup());
    const grep = (input: unknown, ctx = ws.ctx) => runTool(backend.tool, input, ctx);

    test("prints path:line: text in path order, skipping ignored, hidden-dir-aware, binary and secrets files", async () => {
      const result = await grep({ pattern: "foo" });
      expect(result.output).toBe(
        [
          ".hidden/notes.txt:1: foo in hidden",
          "a b/odd:name.txt:1: foo: colon path",
          "lib/keep.min.js:1: foo()",
          "src/FOO.md:2: foo is documented here. todo",
          "src/app.ts:1: import { foo } from './foo';",
          "src/app.ts:3:   return foo(1);",
          "src/foo.ts:1: export function foo(n: number) {",
          "src/nested/real.ts:1: const foo = 2;",
        ].join("\n"),
      );
      expect(result.summary).toBe("8 matches in 7 files");
    });

    test("regular expressions and ignoreCase", async () => {
      expect((await grep({ pattern: "^export function \\w+\\(" })).output).toBe(
        "src/app.ts:2: export function main() {\nsrc/foo.ts:1: export function foo(n: number) {",
      );
      expect((await grep({ pattern: "TODO" })).output).toBe("src/foo.ts:2:   return n + 1; // TODO: overflow");
      expect((await grep({ pattern: "TODO", ignoreCase: true })).output).toBe(
        "src/FOO.md:2: foo is documented here. todo\nsrc/foo.ts:2:   return n + 1; // TODO: overflow",
      );
      expect((await grep({ pattern: "foo_secret", ignoreCase: true })).output).toBe(".env.example:1: FOO_SECRET=");
    });

    test("include narrows by file name at any depth, or by path below the search folder", async () => {
      expect((await grep({ pattern: "foo", include: "*.ts", path: "src/nested" })).output).toBe("src/nested/real.ts:1: const foo = 2;");
      expect((await grep({ pattern: "foo", include: "*.{md,txt}" })).output).toBe(
        ".hidden/notes.txt:1: foo in hidden\na b/odd:name.txt:1: foo: colon path\nsrc/FOO.md:2: foo is documented here. todo",
      );
      expect((await grep({ pattern: "foo", include: "nested/*.ts", path: "src" })).output).toBe("src/nested/real.ts:1: const foo = 2;");
      // include never brings back a .gitignore'd file
      expect((await grep({ pattern: "foo", include: "*.min.js" })).output).toBe("lib/keep.min.js:1: foo()");
    });

    test("a file as path, and paths relative to cwd", async () => {
      expect((await grep({ pattern: "return", path: "src/foo.ts" })).output).toBe("src/foo.ts:2:   return n + 1; // TODO: overflow");
      const ctx = { ...ws.ctx, cwd: ws.path("src") };
      expect((await grep({ pattern: "main" }, ctx)).output).toBe("app.ts:2: export function main() {");
      expect((await grep({ pattern: "keep", path: "../lib" }, ctx)).output).toBe('No matches for "keep" in ../lib.'); // names, not contents
      expect((await grep({ pattern: "foo", path: "../lib" }, ctx)).output).toBe("../lib/keep.min.js:1: foo()");
    });

    test("an explicitly named ignored folder is searched", async () => {
      expect((await grep({ pattern: "foo", path: "dist" })).output).toBe("dist/out.js:1: foo");
    });

    test("no matches, binary files and secrets files named explicitly", async () => {
      expect(await grep({ pattern: "nothing-like-this" })).toEqual({
        output: 'No matches for "nothing-like-this" in the working directory.',
        summary: "no matches",
      });
      expect((await grep({ pattern: "foo", path: "bin/blob.bin" })).output).toBe("bin/blob.bin is a binary file; grep only searches text.");
      expect(await errorOf(grep({ pattern: "foo", path: ".env" }))).toContain("is a secrets file");
    });

    test("invalid regex and paths outside the workspace are clear errors", async () => {
      const message = await errorOf(grep({ pattern: "foo(" }));
      expect(message).toStartWith('grep: invalid regular expression "foo(" (');
      expect(message).toContain("with a backslash");
      expect(await errorOf(grep({ pattern: "x", path: "/etc" }))).toContain("outside the workspace");
      expect(await errorOf(grep({ pattern: "x", path: "srcc" }))).toBe("grep: srcc does not exist. Did you mean src?");
    });

    test(`stops at ${MAX_GREP_MATCHES} matching lines with a note, and long results are cut by runTool`, async () => {
      ws.write({ "many.txt": `hit ${"z".repeat(200)}\n`.repeat(MAX_GREP_MATCHES + 10) });
      const result = await grep({ pattern: "hit", path: "many.txt" });
      expect(result.summary).toBe(`over ${MAX_GREP_MATCHES} matches in 1 file`);
      expect(result.output).toContain(`many.txt:${Math.floor(30_000 / 220)}: hit`);
      expect(result.output).toContain("[output truncated:"); // 250 lines of ~220 characters
      const small = await grep({ pattern: "hit", path: "many.txt", include: "*.nothing" });
      expect(small.summary).toBe("no matches");
    });

    test("the cap note is shown when the capped matches fit", async () => {
      ws.write({ "many.txt": "hit\n".repeat(MAX_GREP_MATCHES + 1) });
      const { output } = await grep({ pattern: "hit" });
      expect(output.split("\n").filter((line) => line.startsWith("many.txt:"))).toHaveLength(MAX_GREP_MATCHES);
      expect(output).toEndWith(`[Stopped at ${MAX_GREP_MATCHES} matching lines; there are more. Narrow the pattern, path or include to see the rest.]`);
    });
  });
}

test.skipIf(rgPath === null)("a pattern JavaScript accepts but ripgrep cannot run is reported, not hidden as no matches", async () => {
  const ws = makeWorkspace();
  try {
    ws.write(fixture);
    const message = await errorOf(runTool(backends[1]!.tool, { pattern: "foo(?=\\()" }, ws.ctx));
    expect(message).toStartWith("grep: ripgrep rejected the pattern:");
  } finally {
    ws.cleanup();
  }
});



test("the default grep tool uses ripgrep only when it is on PATH, with the same results", async () => {
  const ws = makeWorkspace();
  try {
    ws.write(fixture);
    const viaDefault = await runTool(grepTool, { pattern: "foo", ignoreCase: true }, ws.ctx);
    const viaBuiltin = await runTool(backends[0]!.tool, { pattern: "foo", ignoreCase: true }, ws.ctx);
    expect(viaDefault).toEqual(viaBuiltin);
  } finally {
    ws.cleanup();
  }
});

describe("grep is bounded", () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  for (const backend of backends) {
    test.skipIf(backend.skip)(`${backend.name}: a 10 MB line comes back cut to its start, with a note`, async () => {
      ws.write({ "big.txt": `${"a".repeat(10_000_000)}\nshort aaaaa line\n` });
      const result = await runTool(backend.tool, { pattern: "a{5}" }, ws.ctx);
      const [first, second, , note] = result.output.split("\n");
      expect(first).toBe(`big.txt:1: ${"a".repeat(300)}… [long line cut]`);
      expect(second).toBe("big.txt:2: short aaaaa line");
      expect(note).toBe("[Lines over 300 characters are shown cut; read_file shows more of a line.]");
      expect(result.output.length).toBeLessThan(1000);
    });
  }

  test("built-in search: a pattern that backtracks for seconds a line is stopped at the time limit, with what it found and a note", async () => {
    // (a|a)*b backtracks about 2 s over a line of 40 a's before the engine gives up: far past 0.3 s.
    ws.write({ "a.txt": "found a line\n", "b.txt": `${"a".repeat(40)}\n` });
    const tool = createGrepTool({ findRipgrep: () => null, timeLimitMs: 300 });
    const result = await runTool(tool, { pattern: "(a|a)*b|found" }, ws.ctx);
    expect(result.output).toBe(
      "a.txt:1: found a line\n\n" +
        "[Stopped after 0.3 s, with what was found by then; the search did not finish. Narrow the path or include, or simplify the pattern.]",
    );
    expect(result.summary).toBe("1 match in 1 file, stopped at the time limit");
  });
});
