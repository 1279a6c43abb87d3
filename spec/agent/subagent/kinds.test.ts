import { expect, test } from "bun:test";
import { toolsForKind } from "../../../lib/agent/subagent/kinds.ts";
import { createTaskTool } from "../../../lib/agent/subagent/task-tool.ts";
import { createLimiter } from "../../../lib/agent/subagent/limiter.ts";
import { joinReports, MAX_REPORT_CHARS, NO_FINDINGS, reportFor } from "../../../lib/agent/subagent/report.ts";
import { createNotebook } from "../../../lib/notebook/notebook.ts";
import { toolsFor } from "../../../lib/tools/index.ts";
import { defineTool } from "../../../lib/tools/define.ts";
import * as v from "valibot";

const sessionTools = toolsFor({ notebook: createNotebook() });

test("explore and review get only the reading tools: nothing that writes, runs a command, or touches the session", () => {
  for (const kind of ["explore", "review"] as const) {
    const tools = toolsForKind(kind, sessionTools);
    expect(tools.map((t) => t.name).sort()).toEqual(["git", "glob", "grep", "list_dir", "read_file"]);
    expect(tools.some((t) => t.mutates || t.subject.kind === "command")).toBe(false);
  }
});

test("with network reading allowed, explore and review also get web_fetch, and still nothing that writes or runs", () => {
  for (const kind of ["explore", "review"] as const) {
    expect(toolsForKind(kind, sessionTools).map((t) => t.name)).not.toContain("web_fetch");
    const tools = toolsForKind(kind, sessionTools, true);
    expect(tools.map((t) => t.name).sort()).toEqual(["git", "glob", "grep", "list_dir", "read_file", "web_fetch"]);
    expect(tools.some((t) => t.mutates || t.subject.kind === "command")).toBe(false);
  }
});

test("a reading tool's name on a tool that mutates does not make it read-only", () => {
  const impostor = defineTool({ name: "read_file", description: "x", schema: v.object({}), mutates: true, subject: { kind: "path", of: () => "" }, defaultDecision: "ask", execute: async () => ({ output: "", summary: "" }) });
  expect(toolsForKind("explore", [impostor])).toEqual([]);
});

test("a worker gets the session's tools but its task list, memory and the task tool itself", () => {
  const task = createTaskTool({ workers: true, sessionTools: () => sessionTools, runtime: () => { throw new Error("no runtime here"); }, turn: () => undefined, record: () => {} });
  const names = toolsForKind("worker", [...sessionTools, task]).map((t) => t.name);
  expect(names).toContain("edit_file");
  expect(names).toContain("bash");
  for (const absent of ["task", "todo_write"]) expect(names).not.toContain(absent);
});

test("reports: empty says so, long is cut with a note, several are joined in order under their descriptions", () => {
  expect(reportFor({ status: "success", steps: 1, text: "", maxSteps: 20 })).toBe(NO_FINDINGS);
  const long = reportFor({ status: "success", steps: 1, text: "x".repeat(MAX_REPORT_CHARS + 10), maxSteps: 20 });
  expect(long).toEndWith(`[report cut at ${MAX_REPORT_CHARS} characters; 10 more not shown]`);
  expect(reportFor({ status: "interrupted", steps: 2, text: "", maxSteps: 20 })).toBe("Subagent was interrupted after 2 steps, before it finished.");
  expect(joinReports([{ description: "a", kind: "explore", report: "A" }, { description: "b", kind: "review", report: "B" }])).toBe("## 1. a (explore)\n\nA\n\n## 2. b (review)\n\nB");
});

test("the limiter lets at most max run, the rest in order, and a waiter whose signal aborts never runs", async () => {
  const limiter = createLimiter(() => 2);
  const signal = new AbortController().signal;
  const first = await limiter.acquire(signal);
  const second = await limiter.acquire(signal);
  const order: string[] = [];
  const third = limiter.acquire(signal).then((r) => (order.push("third"), r));
  const stop = new AbortController();
  const cancelled = limiter.acquire(stop.signal);
  await Bun.sleep(10);
  expect(order).toEqual([]);
  stop.abort();
  expect(await cancelled).toBeUndefined();
  first!();
  (await third)!();
  second!();
  expect(order).toEqual(["third"]);
});
