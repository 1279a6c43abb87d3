import { describe, expect, test } from "bun:test";
import { createApprovalGate } from "../../cmd/repl/approval-gate.ts";
import { createTheme } from "../../cmd/repl/theme.ts";
import { createPermissionPolicy } from "../../lib/permissions/index.ts";
import type { AnyTool } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
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
      if (gate.typing()) return queueMicrotask(() => gate.type({ name: "enter" })); // nothing to say instead
      queueMicrotask(() => gate.answer(answers.shift() ?? "deny"));
    },
  });
  const approve = gate.approver({ signal: new AbortController().signal, register: () => new AbortController().signal });
  let n = 0;
  const call = async (tool: AnyTool, subject: string, input: unknown = {}) => {
    const before = asked.length;
    const decision = await approve({ tool, input, subject, id: `call-${++n}` });
    if (decision.allow) decision.done?.(); // the call ran and finished, as runToolCall reports
    return { allowed: decision.allow, asked: asked.length > before };
  };
  return { call, asked };
}

const tool = (name: string): AnyTool => coreTools.find((t) => t.name === name)!;
const [bashTool, editFileTool, writeFileTool] = [tool("bash"), tool("edit_file"), tool("write_file")];

describe("approvals through the permission policy", () => {
  test("`a` on `git commit` lets later git commits run without a question, and nothing else", async () => {
    const { call } = gateAnswering(["always", "deny", "deny", "deny"]);
    expect(await call(bashTool, "git commit -m one", { command: "git commit -m one" })).toEqual({ allowed: true, asked: true });
    expect(await call(bashTool, "git commit --amend", { command: "git commit --amend" })).toEqual({ allowed: true, asked: false });
    // A line is covered only when every command in it is; another sub-command is not covered.
    expect(await call(bashTool, "git commit -m x && rm -rf build", { command: "git commit -m x && rm -rf build" })).toEqual({ allowed: false, asked: true });
    expect(await call(bashTool, "git push origin main", { command: "git push origin main" })).toEqual({ allowed: false, asked: true });
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

describe("calls of one step", () => {
  test("a change waits for the change before it to finish; a read does not", async () => {
    const root = tempDir();
    const gate = createApprovalGate({
      permissions: (ask) => createPermissionPolicy({ config: {}, root, cwd: root, home: root, yolo: false, interactive: true, ask }),
      where: { root, cwd: root },
      theme: createTheme(false),
      print: () => {},
      changed: () => {
        if (gate.pending()) queueMicrotask(() => gate.answer("once"));
      },
    });
    const approve = gate.approver({ signal: new AbortController().signal, register: () => new AbortController().signal });
    const first = await approve({ tool: editFileTool, input: { path: "a.txt", oldString: "a", newString: "b" }, subject: "a.txt", id: "1" });
    expect(first.allow).toBe(true);
    let secondDecided = false;
    const second = approve({ tool: writeFileTool, input: { path: "b.txt", content: "b" }, subject: "b.txt", id: "2" }).then((d) => ((secondDecided = true), d));
    const read = await approve({ tool: tool("read_file"), input: { path: "a.txt" }, subject: "a.txt", id: "3" });
    expect(read.allow).toBe(true); // decided while the first edit still runs
    await Bun.sleep(20);
    expect(secondDecided).toBe(false); // not asked while the first edit runs
    if (first.allow) first.done?.();
    expect((await second).allow).toBe(true);
  });
});

describe("an interrupt while the user chooses how long an 'always' lasts", () => {
  test("the call does not run, nothing is granted or saved, and the screen says not run", async () => {
    const root = tempDir();
    const printed: string[] = [];
    const saved: string[] = [];
    const questions: string[] = [];
    let answer: "always" | "deny" = "always";
    const turn = new AbortController();
    const gate = createApprovalGate({
      permissions: (ask) => createPermissionPolicy({ config: {}, root, cwd: root, home: root, yolo: false, interactive: true, ask }),
      where: { root, cwd: root },
      theme: createTheme(false),
      print: (text) => printed.push(text),
      changed: () => {
        if (gate.choosingScope()) return queueMicrotask(() => turn.abort());
        if (gate.typing()) return queueMicrotask(() => gate.type({ name: "enter" }));
        const question = gate.pending();
        if (!question) return;
        questions.push(question.question);
        queueMicrotask(() => gate.answer(answer));
      },
      rules: { target: () => ({ file: "config.json", section: "permissions.allow", rule: '"bash(make)"' }), save: async (grant) => void saved.push(JSON.stringify(grant)) },
    });
    const make = (id: string) => ({ tool: bashTool, input: { command: "make" }, subject: "make", id });
    const decision = await gate.approver({ signal: turn.signal, register: () => new AbortController().signal })(make("1"));
    expect(decision.allow).toBe(false);
    expect(saved).toEqual([]);
    expect(printed.join("\n")).toContain("not run: interrupted");
    expect(printed.join("\n")).not.toContain("allowed");
    // Nor granted for the session: the next turn's same call is asked about again.
    answer = "deny";
    const next = await gate.approver({ signal: new AbortController().signal, register: () => new AbortController().signal })(make("2"));
    expect(next.allow).toBe(false);
    expect(questions).toHaveLength(2);
  });
});
