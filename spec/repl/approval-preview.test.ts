import { expect, test } from "bun:test";
import * as v from "valibot";
import { previewCall, previewOf } from "../../cmd/repl/approval-preview.ts";
import { createTheme } from "../../cmd/repl/theme.ts";
import { defineTool, type AnyTool } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { makeWorkspace } from "../tools/fixture.ts";

const theme = createTheme(false);
const tool = (name: string) => coreTools.find((t) => t.name === name)!;

test("a tool with a preview shows its diff; a command shows its lines; anything else its arguments", () => {
  const ws = makeWorkspace();
  try {
    ws.write({ "a.txt": "a\r\nb\r\n" });
    const where = { root: ws.root, cwd: ws.root };
    expect(previewCall(tool("edit_file"), { path: "a.txt", oldString: "b", newString: "B" }, "a.txt", where, theme)).toEqual([
      "edit_file wants to edit: a.txt  +1 -1",
      "      @@ -1,2 +1,2 @@",
      "    1  a",
      "    2 -b",
      "    2 +B",
    ]);
    expect(previewCall(tool("bash"), { command: "ls\npwd" }, "ls\npwd", where, theme)).toEqual(["bash wants to run:", "    ls", "    pwd"]);
    const deploy: AnyTool = defineTool({
      name: "deploy",
      description: "",
      schema: v.object({ target: v.string() }),
      mutates: true,
      subject: { kind: "text", of: (input) => input.target },
      defaultDecision: "ask",
      execute: async () => ({ output: "", summary: "" }),
    });
    expect(previewCall(deploy, { target: "prod" }, "prod", where, theme)).toEqual(["deploy wants to run: prod", '    {"target":"prod"}']);
    expect(previewCall(tool("write_file"), { path: "x" }, "x", where, theme)[1]).toBe("    (its arguments are invalid; the tool will refuse them)");
  } finally {
    ws.cleanup();
  }
});

test("a patch shows every file it touches, a move both ends, a deletion what goes", () => {
  const ws = makeWorkspace();
  try {
    ws.write({ "a.txt": "one\n", "old.txt": "x\n", "gone.txt": "bye\n" });
    const where = { root: ws.root, cwd: ws.root };
    const input = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-one", "+ONE", "*** Update File: old.txt", "*** Move to: new.txt", "@@", "-x", "+y", "*** Delete File: gone.txt", "*** End Patch"].join("\n");
    expect(previewCall(tool("apply_patch"), { input }, "", where, theme)).toEqual([
      "apply_patch wants to edit: 3 files  +2 -3",
      "  a.txt  +1 -1",
      "      @@ -1,1 +1,1 @@",
      "    1 -one",
      "    1 +ONE",
      "  old.txt → new.txt  +1 -1",
      "      @@ -1,1 +1,1 @@",
      "    1 -x",
      "    1 +y",
      "  gone.txt (delete)  +0 -1",
      "      @@ -1,1 +0,0 @@",
      "    1 -bye",
    ]);
    expect(previewCall(tool("move_file"), { from: "old.txt", to: "dir/new.txt" }, "", where, theme)).toEqual([
      "move_file wants to move: old.txt → dir/new.txt",
      "    (content unchanged)",
    ]);
    expect(previewCall(tool("delete_file"), { path: "gone.txt" }, "", where, theme)[0]).toBe("delete_file wants to delete: gone.txt (delete)  +0 -1");
  } finally {
    ws.cleanup();
  }
});

test("a preview that was cut offers all of it, plain and numbered: a long diff, a long command, long arguments; one that was not offers nothing", () => {
  const ws = makeWorkspace();
  try {
    const where = { root: ws.root, cwd: ws.root };
    const content = Array.from({ length: 120 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";
    const write = previewOf(tool("write_file"), { path: "big.txt", content }, "big.txt", where, createTheme(true));
    expect(write.lines.at(-1)).toContain("… 41 more diff lines · d shows the whole diff");
    expect(write.full?.label).toBe("whole diff");
    expect(write.full?.lines).toHaveLength(1 + 1 + 120);
    expect(write.full?.lines.slice(0, 3)).toEqual(["write_file wants to write: big.txt (new file)  +120 -0", "        @@ -0,0 +1,120 @@", "      1 +row 1"]);
    expect(write.full?.lines.at(-1)).toBe("    120 +row 120");
    expect(write.full?.lines.join("")).not.toContain("\x1b"); // plain, for any pager

    const script = Array.from({ length: 45 }, (_, i) => `echo ${i + 1}`).join("\n");
    const command = previewOf(tool("bash"), { command: script }, script, where, theme);
    expect(command.lines).toHaveLength(1 + 40 + 1);
    expect(command.lines.at(-1)).toBe("    … 5 more lines");
    expect(command.full).toEqual({ label: "whole command", lines: ["bash wants to run:", ...script.split("\n").map((l) => `    ${l}`)] });

    const post: AnyTool = defineTool({
      name: "post",
      description: "",
      schema: v.object({ body: v.string() }),
      mutates: true,
      subject: { kind: "text", of: () => "the body" },
      defaultDecision: "ask",
      execute: async () => ({ output: "", summary: "" }),
    });
    const long = previewOf(post, { body: "w".repeat(400) }, "the body", where, theme);
    expect(long.lines[1]).toEndWith("…");
    expect(long.full).toEqual({ label: "all arguments", lines: ["post wants to run: the body", "    {", `      "body": "${"w".repeat(400)}"`, "    }"] });

    expect(previewOf(tool("edit_file"), { path: "big.txt", oldString: "x", newString: "y" }, "big.txt", where, theme).full).toBeUndefined();
    expect(previewOf(tool("bash"), { command: "ls\npwd" }, "ls\npwd", where, theme).full).toBeUndefined();
  } finally {
    ws.cleanup();
  }
});
