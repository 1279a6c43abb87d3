import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, chmodSync } from "node:fs";
import { applyPatchTool } from "../../lib/tools/apply-patch.ts";
import { parsePatch } from "../../lib/tools/patch/parse.ts";
import { seekLines } from "../../lib/tools/patch/seek.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const apply = (input: string) => runTool(applyPatchTool, { input }, ws.ctx);
const text = (rel: string) => readFileSync(ws.path(rel), "utf8");

describe("apply_patch on real-world patches", () => {
  test("a multi-file patch adds, updates, moves and deletes in one call", async () => {
    ws.write({
      "src/app.py": "import os\n\ndef greet():\n    print(\"Hi\")\n\ndef main():\n    greet()\n",
      "src/old.py": "def run():\n    args = parse()\n    dispatch(args)\n",
      "obsolete.txt": "bye\n",
    });
    chmodSync(ws.path("src/old.py"), 0o755);
    const result = await apply(
      patch(
        "*** Add File: docs/hello.md",
        "+# Hello",
        "+",
        "+world",
        "*** Update File: src/app.py",
        "@@ def greet():",
        '-    print("Hi")',
        '+    print("Hello, world!")',
        "*** Update File: src/old.py",
        "*** Move to: src/cli/new.py",
        "@@ def run():",
        "-    args = parse()",
        "-    dispatch(args)",
        "+    cli = parse()",
        "+    dispatch(cli)",
        "*** Delete File: obsolete.txt",
      ),
    );
    expect(result.output).toBe(
      "Success. Updated the following files:\nA docs/hello.md (+3 -0)\nM src/app.py (+1 -1)\nM src/cli/new.py (moved from src/old.py, +2 -2)\nD obsolete.txt",
    );
    expect(result.summary).toBe("4 files: A docs/hello.md, M src/app.py, M src/cli/new.py, D obsolete.txt");
    expect(text("docs/hello.md")).toBe("# Hello\n\nworld\n");
    expect(text("src/app.py")).toBe('import os\n\ndef greet():\n    print("Hello, world!")\n\ndef main():\n    greet()\n');
    expect(text("src/cli/new.py")).toBe("def run():\n    cli = parse()\n    dispatch(cli)\n");
    expect(statSync(ws.path("src/cli/new.py")).mode & 0o777).toBe(0o755);
    expect(existsSync(ws.path("src/old.py"))).toBe(false);
    expect(existsSync(ws.path("obsolete.txt"))).toBe(false);
  });

  test("several hunks apply in file order; context tolerates trailing whitespace and indentation", async () => {
    ws.write({ "m.ts": "function a() {   \n  return 1;\n}\n\nfunction b() {\n\treturn 2;\n}\n" });
    await apply(
      patch(
        "*** Update File: m.ts",
        "@@",
        " function a() {",
        "-  return 1;",
        "+  return 10;",
        " }",
        "@@ function b() {",
        "-    return 2;",
        "+\treturn 20;",
      ),
    );
    expect(text("m.ts")).toBe("function a() {   \n  return 10;\n}\n\nfunction b() {\n\treturn 20;\n}\n");
  });

  test("typographic quotes and dashes in the file match ASCII in the patch, as in the reference", async () => {
    ws.write({ "t.md": "say “hi” — ok\nnext\n" });
    await apply(patch("*** Update File: t.md", "@@", '-say "hi" - ok', "+said hi", " next"));
    expect(text("t.md")).toBe("said hi\nnext\n");
  });

  test("End of File pins a hunk to the end; a CRLF file stays CRLF; a heredoc wrapper is taken off", async () => {
    ws.write({ "e.txt": "x\nend\nx\nend\n", "w.txt": "a\r\nb\r\n" });
    await apply(["<<'EOF'", patch("*** Update File: e.txt", "@@", " x", "-end", "+END", "*** End of File", "*** Update File: w.txt", "@@", " a", "-b", "+B"), "EOF"].join("\n"));
    expect(text("e.txt")).toBe("x\nend\nx\nEND\n");
    expect(text("w.txt")).toBe("a\r\nB\r\n");
  });

  test("a hunk that does not apply names the file and the hunk, and no file is touched", async () => {
    ws.write({ "a.txt": "one\ntwo\n", "b.txt": "alpha\nbeta\n" });
    const message = await errorOf(
      apply(patch("*** Update File: a.txt", "@@", "-one", "+ONE", "*** Update File: b.txt", "@@", " alpha", "-gamma", "+GAMMA", "*** Add File: c.txt", "+new")),
    );
    expect(message).toStartWith("apply_patch: hunk 1 of 1 for b.txt (patch line 7) does not apply: these lines (context and \"-\" lines) were not found:\n  alpha\n  gamma");
    expect(message).toContain("Its first line is at line 1, but the lines around it differ.");
    expect(message).toEndWith("Nothing was written: fix that and send the whole patch again.");
    expect(text("a.txt")).toBe("one\ntwo\n");
    expect(text("b.txt")).toBe("alpha\nbeta\n");
    expect(existsSync(ws.path("c.txt"))).toBe(false);
  });

  test("a path outside the workspace, and a secrets file, are refused before anything is written", async () => {
    ws.write({ "a.txt": "one\n" });
    const escape = await errorOf(apply(patch("*** Update File: a.txt", "@@", "-one", "+ONE", "*** Add File: ../evil.txt", "+x")));
    expect(escape).toContain("path ../evil.txt is outside the workspace");
    expect(text("a.txt")).toBe("one\n");
    const secret = await errorOf(apply(patch("*** Add File: config/.env", "+KEY=1")));
    expect(secret).toContain("config/.env is a secrets file");
    expect(existsSync(ws.path("config/.env"))).toBe(false);
  });

  test("instructive errors: a missing file, a delete of nothing, a file named twice, a bad header, no hunks", async () => {
    ws.write({ "a.txt": "one\n" });
    expect(await errorOf(apply(patch("*** Update File: nope.txt", "@@", "-x", "+y")))).toContain('nope.txt does not exist. Use glob or list_dir to find the right path. To create it use "*** Add File:".');
    expect(await errorOf(apply(patch("*** Delete File: gone.txt")))).toContain("Delete File: gone.txt does not exist");
    expect(await errorOf(apply(patch("*** Update File: a.txt", "@@", "-one", "+1", "*** Delete File: a.txt")))).toContain("a.txt appears twice in the patch");
    expect(await errorOf(apply(patch("*** Change File: a.txt")))).toContain('line 2: "*** Change File: a.txt" is not a file header');
    expect(await errorOf(apply(patch("*** Update File: a.txt")))).toContain('"*** Update File: a.txt" has no hunks');
    expect(await errorOf(apply("*** Update File: a.txt\n@@\n-one\n+two"))).toContain('the first line must be "*** Begin Patch"');
    expect(await errorOf(apply(patch()))).toContain("the patch changes no files");
    expect(text("a.txt")).toBe("one\n");
  });

  test("the preview shows every file's change without writing", () => {
    ws.write({ "a.txt": "one\n", "d.txt": "gone\n" });
    const input = patch("*** Update File: a.txt", "@@", "-one", "+ONE", "*** Add File: n.txt", "+hi", "*** Delete File: d.txt");
    expect(applyPatchTool.preview!({ input }, ws.ctx)).toEqual([
      { type: "change", path: "a.txt", before: "one\n", after: "ONE\n" },
      { type: "change", path: "n.txt", before: undefined, after: "hi\n" },
      { type: "delete", path: "d.txt", before: "gone\n" },
    ]);
    expect(applyPatchTool.preview!({ input: patch("*** Update File: a.txt", "@@", "-zzz", "+y") }, ws.ctx)).toMatchObject([{ type: "fails", path: "the patch" }]);
    expect(text("a.txt")).toBe("one\n");
  });

  test("its subject lists every path, for the screen and for permission rules", () => {
    const input = patch("*** Update File: a.txt", "*** Move to: b/a.txt", "@@", "-x", "+y", "*** Delete File: c.txt");
    expect(applyPatchTool.subject.of({ input })).toBe("a.txt, b/a.txt, c.txt");
    expect(applyPatchTool.subject.paths!({ input })).toEqual(["a.txt", "b/a.txt", "c.txt"]);
  });
});

describe("the envelope parser and the context search", () => {
  test("a first hunk without @@, blank context lines, and an anchor", () => {
    const parsed = parsePatch(patch("*** Update File: f.py", " import foo", "+bar", "", "@@ def f():", "-    pass", "+    return 1"));
    expect(parsed).toEqual({
      ok: true,
      ops: [
        {
          type: "update",
          path: "f.py",
          line: 2,
          chunks: [
            {
              lines: [
                { mark: " ", text: "import foo" },
                { mark: "+", text: "bar" },
                { mark: " ", text: "" },
              ],
              atEnd: false,
              line: 3,
            },
            {
              anchor: "def f():",
              lines: [
                { mark: "-", text: "    pass" },
                { mark: "+", text: "    return 1" },
              ],
              atEnd: false,
              line: 6,
            },
          ],
        },
      ],
    });
  });

  test("seekLines: exact, then trailing whitespace, then trimmed; atEnd looks at the end first", () => {
    expect(seekLines(["foo", "bar", "baz"], ["bar", "baz"], 0, false)).toBe(1);
    expect(seekLines(["foo   ", "bar\t"], ["foo", "bar"], 0, false)).toBe(0);
    expect(seekLines(["   foo  ", "  bar"], ["foo", "bar"], 0, false)).toBe(0);
    expect(seekLines(["x", "t", "y", "t"], ["t"], 0, true)).toBe(3);
    expect(seekLines(["one"], ["a", "b"], 0, false)).toBe(-1);
  });
});
