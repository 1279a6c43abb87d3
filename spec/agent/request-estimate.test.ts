import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { requestBudget } from "../../lib/agent/context-budget.ts";
import { estimateNextRequest } from "../../lib/agent/request-estimate.ts";
import { taskListNote } from "../../lib/agent/task-list-note.ts";
import type { ContextWindowInfo } from "../../lib/provider/context-window.ts";
import { estimateTokens } from "../../lib/prune/tokens.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { idMaker, step, user } from "../prune/fixtures.ts";

const tools = toolsFor({ notebook: createNotebook() });
const instructions = "You are shiro. ".repeat(100);
const window = (info: Partial<ContextWindowInfo> = {}): ContextWindowInfo => ({ tokens: 128_000, source: "default", from: "default", scale: 1, ...info });
const history: ModelMessage[] = [
  { role: "user", content: "read the notes" },
  { role: "assistant", content: "The notes say: " + "ship it. ".repeat(50) },
];
const overhead = requestBudget(window(), { pruneAtTokens: 120_000, instructions, tools }).overheadTokens;

describe("estimateNextRequest: what the next prompt's request carries besides the prompt", () => {
  test("an empty conversation still sends the instructions and the tool definitions", () => {
    const next = estimateNextRequest(window(), { pruneAtTokens: 120_000, instructions, tools, history: [], tail: [] });
    expect(next).toMatchObject({ requestTokens: overhead, windowTokens: 128_000, conversationTokens: 0 });
  });

  test("the conversation and the task list note are added; the colour's share is the conversation against its budget", () => {
    const tail = taskListNote("[ ] ship it");
    const next = estimateNextRequest(window(), { pruneAtTokens: 120_000, instructions, tools, history, tail });
    expect(next.conversationTokens).toBe(estimateTokens(history));
    expect(next.requestTokens).toBe(overhead + estimateTokens(history) + estimateTokens(tail));
    expect(next.budgetTokens).toBe(requestBudget(window(), { pruneAtTokens: 120_000, instructions, tools }).conversationTokens);
  });

  test("a history past its budget counts as pruned, as the turn would send it", () => {
    const ids = idMaker();
    const ls = (n: number) => ({ name: "bash", input: { command: `ls ${n}` }, output: "Exit code 0\n" + "x".repeat(2000) });
    const long = [user("go"), ...Array.from({ length: 8 }, (_, i) => step(ids, "responses", { calls: [ls(i)] })).flat(), ...step(ids, "responses", { text: "done" })];
    const next = estimateNextRequest(window(), { pruneAtTokens: 2_000, instructions, tools, history: long, tail: [] });
    expect(next.conversationTokens).toBeLessThan(estimateTokens(long));
    expect(next.conversationTokens).toBeLessThanOrEqual(2_000);
  });

  test("a learned scale turns the estimate into the server's tokens", () => {
    const next = estimateNextRequest(window({ scale: 1.5 }), { pruneAtTokens: 120_000, instructions, tools, history, tail: [] });
    expect(next.requestTokens).toBe(Math.ceil((requestBudget(window({ scale: 1.5 }), { pruneAtTokens: 120_000, instructions, tools }).overheadTokens + estimateTokens(history)) * 1.5));
  });
});
