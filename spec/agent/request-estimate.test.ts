import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { requestBudget } from "../../lib/agent/context-budget.ts";
import { cachedEstimates, estimateNextRequest } from "../../lib/agent/request-estimate.ts";
import { prepareRequest } from "../../lib/agent/next-request.ts";
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
    const next = estimateNextRequest({ window: window(), pruneAtTokens: 120_000, instructions, tools, history: [], tail: [] });
    expect(next).toMatchObject({ requestTokens: overhead, windowTokens: 128_000, conversationTokens: 0 });
  });

  test("the conversation and the task list note are added; the colour's share is the conversation against its budget", () => {
    const tail = taskListNote("[ ] ship it");
    const next = estimateNextRequest({ window: window(), pruneAtTokens: 120_000, instructions, tools, history, tail });
    expect(next.conversationTokens).toBe(estimateTokens(history));
    expect(next.requestTokens).toBe(overhead + estimateTokens(history) + estimateTokens(tail));
    expect(next.budgetTokens).toBe(requestBudget(window(), { pruneAtTokens: 120_000, instructions, tools }).conversationTokens);
  });

  test("a history past its budget counts as pruned, as the turn would send it", () => {
    const ids = idMaker();
    const ls = (n: number) => ({ name: "bash", input: { command: `ls ${n}` }, output: "Exit code 0\n" + "x".repeat(2000) });
    const long = [user("go"), ...Array.from({ length: 8 }, (_, i) => step(ids, "responses", { calls: [ls(i)] })).flat(), ...step(ids, "responses", { text: "done" })];
    const next = estimateNextRequest({ window: window(), pruneAtTokens: 2_000, instructions, tools, history: long, tail: [] });
    expect(next.conversationTokens).toBeLessThan(estimateTokens(long));
    expect(next.conversationTokens).toBeLessThanOrEqual(2_000);
  });

  test("a learned scale turns the estimate into the server's tokens", () => {
    const next = estimateNextRequest({ window: window({ scale: 1.5 }), pruneAtTokens: 120_000, instructions, tools, history, tail: [] });
    expect(next.requestTokens).toBe(Math.ceil((requestBudget(window({ scale: 1.5 }), { pruneAtTokens: 120_000, instructions, tools }).overheadTokens + estimateTokens(history)) * 1.5));
  });

  test("it measures the request the turn sends: the repaired, pruned history, then the task list note", () => {
    const ids = idMaker();
    // The last call has no result yet (a session killed mid-step): the request closes it as interrupted.
    const [call] = step(ids, "chat", { calls: [{ name: "bash", input: { command: "ls" }, output: "" }] });
    const dangling = [...history, call!];
    const tail = taskListNote("[ ] ship it");
    const input = { window: window(), pruneAtTokens: 120_000, instructions, tools, history: dangling, tail };
    const request = prepareRequest(input);
    expect(request.messages.at(-1)).toEqual(tail.at(-1)!);
    expect(request.messages.some((m) => m.role === "tool")).toBe(true);
    const next = estimateNextRequest(input);
    expect(next.conversationTokens).toBe(estimateTokens(request.messages.slice(0, -tail.length)));
    expect(next.requestTokens).toBe(request.budget.overheadTokens + next.conversationTokens + estimateTokens(tail));
  });

  test("asked again with nothing changed, the estimate is the one already made; a new history or task list is measured again", () => {
    const estimate = cachedEstimates();
    const input = { window: window(), pruneAtTokens: 120_000, instructions, tools, history, tail: taskListNote("[ ] a") };
    const first = estimate(input);
    expect(estimate({ ...input, tail: taskListNote("[ ] a") })).toBe(first);
    expect(estimate({ ...input, tail: taskListNote("[ ] a much longer task list entry") }).requestTokens).toBeGreaterThan(first.requestTokens);
    expect(estimate({ ...input, history: [...history, { role: "user", content: "more words here" }] }).conversationTokens).toBeGreaterThan(first.conversationTokens);
  });
});
