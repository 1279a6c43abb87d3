import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Approver } from "../../lib/approval.ts";
import { runToolCall, type ToolCallOptions } from "../../lib/agent/tool-call.ts";
import type { AgentEvent } from "../../lib/events.ts";
import { bashTool } from "../../lib/tools/bash.ts";
import { NOT_RUN_PREFIX } from "../../lib/tools/define.ts";
import { readFileTool } from "../../lib/tools/read-file.ts";
import { makeWorkspace, type Workspace } from "../tools/fixture.ts";

let ws: Workspace;
let events: AgentEvent[];
beforeEach(() => {
  ws = makeWorkspace();
  events = [];
});
afterEach(() => ws.cleanup());

const options = (approve: Approver): ToolCallOptions => ({
  root: ws.root,
  cwd: ws.root,
  signal: new AbortController().signal,
  emit: (event) => events.push(event),
  approve,
  redact: (text) => text.replaceAll("sk-secret", "[redacted]"),
});
const allow: Approver = async () => ({ allow: true });

test("an allowed call streams its output, then reports its result with its subject; both are redacted", async () => {
  const outcome = await runToolCall(bashTool, { command: "echo sk-secret" }, "call_1", options(allow));
  expect(outcome).toEqual({ output: "Exit code 0\n[redacted]\n", summary: "exit 0", denied: false });
  expect(events).toEqual([
    { type: "tool-output", id: "call_1", tool: "bash", stream: "stdout", chunk: "[redacted]\n" },
    { type: "tool-result", id: "call_1", tool: "bash", subject: "echo sk-secret", summary: "exit 0", output: "Exit code 0\n[redacted]\n", exitCode: 0 },
  ]);
});

test("a denied call is reported once and the model reads why; the tool does not run", async () => {
  let asked: unknown;
  const deny: Approver = async (call) => {
    asked = { tool: call.tool.name, subject: call.subject, id: call.id };
    return { allow: false, reason: "no." };
  };
  const outcome = await runToolCall(bashTool, { command: "touch x" }, "call_2", options(deny));
  expect(asked).toEqual({ tool: "bash", subject: "touch x", id: "call_2" });
  expect(outcome).toEqual({ output: `${NOT_RUN_PREFIX}no.`, summary: "", denied: true });
  expect(events).toEqual([{ type: "tool-denied", id: "call_2", tool: "bash", subject: "touch x", reason: "no." }]);
  expect(await Bun.file(ws.path("x")).exists()).toBe(false);
});

test("a call that ends after its step is over reports no result: the history repair closes it", async () => {
  const outcome = await runToolCall(bashTool, { command: "echo late" }, "call_5", { ...options(allow), stepOpen: () => false });
  expect(outcome.output).toBe("Exit code 0\nlate\n");
  expect(events.map((e) => e.type)).toEqual(["tool-output"]);
  await expect(runToolCall(readFileTool, { path: "missing.txt" }, "call_6", { ...options(allow), stepOpen: () => false })).rejects.toThrow();
  expect(events.map((e) => e.type)).toEqual(["tool-output"]);
});

test("a failure is reported as tool-error (naming its subject) and rethrown for the SDK's error result", async () => {
  await expect(runToolCall(readFileTool, { path: "missing.txt" }, "call_3", options(allow))).rejects.toThrow("read_file: missing.txt does not exist");
  expect(events).toEqual([{ type: "tool-error", id: "call_3", tool: "read_file", subject: "missing.txt", error: expect.stringContaining("missing.txt does not exist") }]);
  events = [];
  const broken: Approver = async () => {
    throw new Error("the question could not be asked");
  };
  await expect(runToolCall(readFileTool, { path: "a" }, "call_4", options(broken))).rejects.toThrow("could not be asked");
  expect(events).toEqual([{ type: "tool-error", id: "call_4", tool: "read_file", subject: "a", error: "the question could not be asked" }]);
});

test("the turn's start is written to the undo journal before a tool runs, and not for a call that is denied", async () => {
  const order: string[] = [];
  const journal = { ready: () => void order.push(`ready (${existsSync(ws.path("made")) ? "after" : "before"} the command)`), before: async () => {} };
  const deny: Approver = async () => ({ allow: false, reason: "no." });
  await runToolCall(bashTool, { command: "touch made" }, "call_8", { ...options(deny), journal });
  expect(order).toEqual([]);
  await runToolCall(bashTool, { command: "touch made" }, "call_9", { ...options(allow), journal });
  expect(order).toEqual(["ready (before the command)"]);
  expect(existsSync(ws.path("made"))).toBe(true);
});

test("an allowed call's `done` is called once, after its result or its error is reported", async () => {
  const seen: string[] = [];
  const tracking: Approver = async () => ({ allow: true, done: () => seen.push(`done after ${events.at(-1)?.type}`) });
  await runToolCall(bashTool, { command: "echo hi" }, "call_7", options(tracking));
  await expect(runToolCall(readFileTool, { path: "missing.txt" }, "call_8", options(tracking))).rejects.toThrow();
  expect(seen).toEqual(["done after tool-result", "done after tool-error"]);
});
