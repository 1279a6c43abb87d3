import { describe, expect, test } from "bun:test";
import { createApprovalGate } from "../../cmd/repl/approval-gate.ts";
import { createTheme } from "../../cmd/repl/theme.ts";
import { createPermissionPolicy } from "../../lib/permissions/index.ts";
import type { AnyTool } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { unifiedDiff } from "../../lib/unified-diff.ts";
import { tempDir } from "../support/cli.ts";

/**
 * The loop's approval gate over the real permission policy: which calls ask, and what an
 * "always" answer covers afterwards. Each question is answered by `answers`, in order.
 */
function gateAnswering(answers: ("once" | "always" | "deny")[]) {
  const root = tempDir();
  const asked: string[] = [];
  const gate = createApprovalGate({
    permissions: (ask) => createPermissionPolicy({ config: {}, root, cwd: root, home: root, yolo: false, interactive: true, ask }),
    where: { root, cwd: root },
    theme: createTheme(false),
    print: () => {},
    changed: () => {
      const question = gate.pending();
      if (!question) return;
      asked.push(question.question);
      queueMicrotask(() => gate.answer(answers.shift() ?? "deny"));
    },
  });
  const approve = gate.approver({ signal: new AbortController().signal, register: () => new AbortController().signal });
  let n = 0;
  const call = async (tool: AnyTool, subject: string, input: unknown = {}) => {
    const before = asked.length;
    const decision = await approve({ tool, input, subject, id: `call-${++n}` });
    return { allowed: decision.allow, asked: asked.length > before };
  };
  return { call, asked };
}

const tool = (name: string): AnyTool => coreTools.find((t) => t.name === name)!;
const [bashTool, editFileTool, writeFileTool] = [tool("bash"), tool("edit_file"), tool("write_file")];

describe("approvals through the permission policy", () => {
  test("`a` on `git status` lets later git commands run without a question, and nothing else", async () => {
    const { call } = gateAnswering(["always", "deny", "deny", "deny"]);
    expect(await call(bashTool, "git status", { command: "git status" })).toEqual({ allowed: true, asked: true });
    expect(await call(bashTool, "git diff --stat", { command: "git diff --stat" })).toEqual({ allowed: true, asked: false });
    // A line is covered only when every command in it is.
    expect(await call(bashTool, "git log && rm -rf build", { command: "git log && rm -rf build" })).toEqual({ allowed: false, asked: true });
    expect(await call(bashTool, "npm test", { command: "npm test" })).toEqual({ allowed: false, asked: true });
  });

  test("`a` on an edit covers every later edit_file call, not write_file", async () => {
    const { call } = gateAnswering(["always", "deny"]);
    expect(await call(editFileTool, "src/a.ts")).toEqual({ allowed: true, asked: true });
    expect(await call(editFileTool, "other.ts")).toEqual({ allowed: true, asked: false });
    expect(await call(writeFileTool, "other.ts")).toEqual({ allowed: false, asked: true });
  });

  test("`y` allows once: the same kind of call asks again", async () => {
    const { call } = gateAnswering(["once", "once"]);
    expect(await call(bashTool, "make", { command: "make" })).toEqual({ allowed: true, asked: true });
    expect(await call(bashTool, "make", { command: "make" })).toEqual({ allowed: true, asked: true });
  });
});

describe("unified diff", () => {
  test("one changed line with context and counts", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    const diff = unifiedDiff(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(["h@@ -2,7 +2,7 @@", "cb", "cc", "cd", "re", "aE", "cf", "cg", "ch"]);
  });

  test("a new file is all additions", () => {
    const diff = unifiedDiff("", "x\ny\n");
    expect([diff.added, diff.removed]).toEqual([2, 0]);
    expect(diff.lines[0]!.text).toBe("@@ -0,0 +1,2 @@");
  });

  test("distant changes make separate hunks", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[2] = "two";
    changed[25] = "twenty-five";
    const diff = unifiedDiff(lines.join("\n"), changed.join("\n"));
    expect(diff.lines.filter((l) => l.kind === "hunk")).toHaveLength(2);
  });

  test("no change, no hunks", () => {
    expect(unifiedDiff("same\n", "same\n").lines).toEqual([]);
  });
});
