// The next request's preparation (lib/agent/next-request.ts): the turn sends it before every step
// and the status line measures it. A long session's history is not walked whole at every step
// for calls without a result, yet the request is always what the full repair would make.
import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { prepareRequest } from "../../lib/agent/next-request.ts";
import { closeDanglingToolCalls } from "../../lib/prune/repair.ts";
import type { ContextWindowInfo } from "../../lib/provider/context-window.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { idMaker, step, user } from "../prune/fixtures.ts";

const tools = toolsFor({ notebook: createNotebook() });
const window: ContextWindowInfo = { tokens: 1_000_000, source: "default", from: "default", scale: 1 };
const request = (history: ModelMessage[]) => prepareRequest({ history, instructions: "be brief", tools, window, pruneAtTokens: 900_000, tail: [] }).messages;
const call = (id: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "bash", input: { command: "ls" } }] });
const result = (id: string): ModelMessage => ({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "bash", output: { type: "text", value: "ok" } }] });

describe("prepareRequest: the history repaired step after step", () => {
  test("each request is the fully repaired history, whatever the step before had found complete", () => {
    const ids = idMaker();
    let history: ModelMessage[] = [user("go"), ...step(ids, "chat", { calls: [{ name: "bash", input: { command: "ls" }, output: "a" }] })];
    const steps: ((h: ModelMessage[]) => ModelMessage[])[] = [
      (h) => [...h, ...step(ids, "chat", { calls: [{ name: "bash", input: { command: "pwd" }, output: "b" }] })], // complete
      (h) => [...h, call("dangling-1")], // a step under way: its call has no result yet
      (h) => [...h.slice(0, -1), call("dangling-1"), result("dangling-1")], // answered
      (h) => [...h, result("early"), user("next")], // a result that comes before its call…
      (h) => [...h, call("early")], // …still answers it
      (h) => [...h, call("dangling-2"), user("interrupted")], // never answered
    ];
    for (const next of steps) {
      history = next(history);
      expect(request(history)).toEqual(closeDanglingToolCalls(history));
    }
    // The last one had a call closed as interrupted.
    expect(JSON.stringify(request(history))).toContain("dangling-2");
    expect(request(history).length).toBe(history.length + 1);
  });
});
