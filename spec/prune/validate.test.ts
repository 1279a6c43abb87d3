import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { validateHistory } from "../../lib/prune/validate.ts";
import { idMaker, longToolLoop, randomHistory, step, user } from "./fixtures.ts";

const codes = (messages: ModelMessage[], options = {}) => validateHistory(messages, options).map((v) => v.code);
const call = (id: string, itemId?: string) => ({ type: "tool-call", toolCallId: id, toolName: "bash", input: { command: "ls" }, ...(itemId ? { providerOptions: { openai: { itemId } } } : {}) });
const result = (id: string) => ({ type: "tool-result", toolCallId: id, toolName: "bash", output: { type: "text", value: "Exit code 0" } });
const assistant = (...content: any[]) => ({ role: "assistant", content }) as ModelMessage;
const tool = (...content: any[]) => ({ role: "tool", content }) as ModelMessage;

describe("validateHistory", () => {
  test("valid histories of both styles have no violations", () => {
    expect(validateHistory(longToolLoop({ steps: 50 }))).toEqual([]);
    expect(validateHistory(longToolLoop({ steps: 50, style: "chat" }))).toEqual([]);
    for (let seed = 1; seed <= 100; seed++) expect(validateHistory(randomHistory(seed), { allowPendingCalls: true })).toEqual([]);
  });

  test("a result without its call", () => {
    const [v] = validateHistory([user("hi"), tool(result("call_x"))]);
    expect(v).toMatchObject({ code: "orphan-result", index: 1, id: "call_x" });
    expect(v!.message).toContain("call_x");
  });

  test("a result before its call, and a call without a result", () => {
    expect(codes([user("hi"), tool(result("call_a")), assistant(call("call_a"))])).toEqual(["result-before-call", "missing-result"]);
  });

  test("a result separated from its call by another message", () => {
    expect(codes([user("hi"), assistant(call("call_a")), user("wait"), tool(result("call_a"))])).toEqual(["result-not-adjacent"]);
  });

  test("results split over consecutive tool messages are fine", () => {
    expect(codes([user("hi"), assistant(call("call_a"), call("call_b")), tool(result("call_b")), tool(result("call_a"))])).toEqual([]);
  });

  test("duplicate call ids and duplicate results", () => {
    expect(codes([user("hi"), assistant(call("call_a")), tool(result("call_a"), result("call_a"))])).toEqual(["duplicate-result"]);
    expect(codes([user("hi"), assistant(call("call_a")), tool(result("call_a")), assistant(call("call_a")), tool(result("call_a"))])).toContain("duplicate-call-id");
  });

  test("a pending call is allowed only on request, and only at the end", () => {
    const pending = [user("hi"), assistant({ type: "text", text: "running" }, call("call_p"))];
    expect(codes(pending)).toEqual(["missing-result"]);
    expect(codes(pending, { allowPendingCalls: true })).toEqual([]);
    expect(codes([...pending, user("next")], { allowPendingCalls: true })).toEqual(["missing-result"]);
  });

  test("an item reference whose message lost its reasoning item", () => {
    const ids = idMaker();
    const [a, t] = step(ids, "responses", { reasoning: "r", text: "hello", calls: [{ name: "bash", input: { command: "ls" }, output: "Exit code 0" }] });
    const stripped = { ...a!, content: (a!.content as any[]).filter((p) => p.type !== "reasoning") } as ModelMessage;
    expect(codes([user("hi"), a!, t!])).toEqual([]);
    expect(codes([user("hi"), stripped, t!])).toEqual(["reference-without-reasoning", "reference-without-reasoning"]);
  });

  test("reasoning with nothing after it in its message", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", text: "hello" });
    const onlyReasoning = { ...a!, content: (a!.content as any[]).filter((p) => p.type === "reasoning") } as ModelMessage;
    expect(codes([user("hi"), onlyReasoning])).toEqual(["reasoning-without-following-item"]);
    // Reasoning that cannot go on the wire (no id, no encrypted content) is not a problem.
    expect(codes([user("hi"), assistant({ type: "reasoning", text: "r" })])).toEqual([]);
  });

  test("the same item in two messages", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", text: "hello" });
    expect(codes([user("hi"), a!, user("again"), a!])).toEqual(["duplicate-item-id", "duplicate-item-id"]);
  });
});
