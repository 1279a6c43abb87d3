// The prune functions against the strict fake OpenAI server, through the real AI SDK: histories the
// SDK itself produced are pruned, repaired and sent back, and the server — which rejects exactly the
// broken histories the real API rejects — must accept every request. Also reproduces each of the
// spec's provider errors without the repair, so the tests cannot pass vacuously.
import { describe, expect, test } from "bun:test";
import { jsonSchema, pruneMessages, streamText, tool, type ModelMessage } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import type { FakeServer, Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { pruneForWire } from "../../lib/prune/prune.ts";
import { closeDanglingToolCalls, detachOrphanedItems, dropOrphanedResults, inlineHistory } from "../../lib/prune/repair.ts";
import { isMissingItemError, missingItemId } from "../../lib/provider/missing-item.ts";
import { validateHistory } from "../../lib/prune/validate.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const serve = useFakeServer();
let server: FakeServer;

const tools = {
  bash: tool({
    inputSchema: jsonSchema<{ command: string }>({ type: "object", properties: { command: { type: "string" } } }),
    execute: async ({ command }) => `Exit code 0\n${command}: ${"output line\n".repeat(60)}`,
  }),
  read_file: tool({
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } } }),
    execute: async ({ path }) => Array.from({ length: 40 }, (_, i) => `${i + 1}\t// ${path} line ${i + 1}`).join("\n"),
  }),
};

type Wire = "responses" | "chat";
const modelFor = (wire: Wire, id: string) => {
  const openai = createOpenAI({ baseURL: server.url, apiKey: "test" });
  return wire === "chat" ? openai.chat(id) : openai.responses(id);
};

/** One request; the step's messages, or the error the server answered with. */
async function send(wire: Wire, modelId: string, messages: ModelMessage[]): Promise<{ messages: ModelMessage[]; error?: unknown }> {
  const result = streamText({ model: modelFor(wire, modelId), messages, tools, maxRetries: 0, onError: () => {} });
  let error: unknown;
  try {
    for await (const part of result.stream) if (part.type === "error") error ??= part.error;
    if (error) return { messages: [], error };
    return { messages: (await result.response).messages as ModelMessage[] };
  } catch (caught) {
    return { messages: [], error: caught };
  }
}

const reply = (i: number): Reply => ({
  reasoning: `step ${i}: ${"thinking ".repeat(40)}`,
  text: i % 2 === 0 ? `Checking ${i}.` : undefined,
  toolCalls: i % 5 === 0 ? [{ name: "bash", input: { command: `ls ${i}` } }, { name: "read_file", input: { path: `a${i}.ts` } }, { name: "bash", input: { command: "bun test" } }] : [{ name: "read_file", input: { path: `f${i}.ts` } }],
});

/** A tool loop the way runTurn drives it: repair, prune, send, append. Counts the steps pruned, and those with tool content digested. */
async function loop(wire: Wire, modelId: string, history: ModelMessage[], steps: number, thresholdTokens: number) {
  let pruned = 0;
  let laddered = 0;
  for (let i = 1; i <= steps; i++) {
    server.push(i === steps ? { reasoning: "done", text: "All done." } : reply(i));
    const { messages, report } = pruneForWire(closeDanglingToolCalls(history), { budgetTokens: thresholdTokens });
    if (report.pruned) pruned++;
    if (report.kept !== undefined) laddered++;
    expect(validateHistory(messages)).toEqual([]);
    const out = await send(wire, modelId, messages);
    expect(out.error).toBeUndefined();
    history.push(...out.messages);
  }
  return { pruned, laddered };
}

describe("pruned histories are accepted by a strict server", () => {
  for (const [wire, modelId] of [["responses", "gpt-5"], ["responses", "gpt-test"], ["chat", "gpt-test"]] as const) {
    test(`${wire} wire, ${modelId}: a 40-step tool loop pruned at every step`, async () => {
      server = await serve();
      const history: ModelMessage[] = [{ role: "user", content: "Fix the pagination bug." }];
      const { pruned, laddered } = await loop(wire, modelId, history, 40, 2_500);
      expect(pruned).toBeGreaterThan(30);
      expect(laddered).toBeGreaterThan(20);
      expect(history.at(-1)).toMatchObject({ role: "assistant" });
    });
  }
});

describe("the spec's provider errors, reproduced and repaired", () => {
  /** Two real steps on the Responses wire with a model the SDK does not treat as a reasoning model. */
  async function twoSteps(modelId = "gpt-test"): Promise<ModelMessage[]> {
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    for (const r of [reply(2), reply(4)]) {
      server.push(r);
      const out = await send("responses", modelId, history);
      expect(out.error).toBeUndefined();
      history.push(...out.messages);
    }
    return history;
  }

  test("400 message without its reasoning item: stripping reasoning alone breaks it, detachOrphanedItems fixes it", async () => {
    server = await serve();
    serve.allowRejections("the history without its reasoning item is sent once to show the real API refuses it");
    const history = await twoSteps();
    const stripped = pruneMessages({ messages: history, reasoning: "all" });
    server.push({ text: "ok" });
    const broken = await send("responses", "gpt-test", stripped);
    expect(String((broken.error as { responseBody?: string }).responseBody)).toContain("was provided without its required 'reasoning' item");
    const fixed = await send("responses", "gpt-test", detachOrphanedItems(stripped));
    expect(fixed.error).toBeUndefined();
  });

  test("400 no tool call found: a cut between a call and its result breaks it, dropOrphanedResults fixes it", async () => {
    server = await serve();
    serve.allowRejections("the cut history is sent once to show the real API refuses it");
    const history = await twoSteps();
    const cut = [history[0]!, ...history.slice(2)]; // the first assistant message (with its call) is gone
    server.push({ text: "ok" });
    const broken = await send("responses", "gpt-test", cut);
    expect(String((broken.error as { responseBody?: string }).responseBody)).toContain("No tool call found for function call output");
    const fixed = await send("responses", "gpt-test", dropOrphanedResults(cut));
    expect(fixed.error).toBeUndefined();
  });

  test("404 item not found: recognised, and the inline history is accepted; a pruned wire never hits it", async () => {
    server = await serve();
    serve.allowRejections("the forgotten items are sent once to show the real 404");
    const history = await twoSteps("gpt-5");
    server.forgetItems(); // a session resumed the next day
    server.push({ text: "ok" });
    const failed = await send("responses", "gpt-5", history);
    expect(isMissingItemError(failed.error)).toBe(true);
    expect(missingItemId(failed.error)).toMatch(/^(rs|msg)_/);
    const retried = await send("responses", "gpt-5", inlineHistory(history));
    expect(retried.error).toBeUndefined();

    server.forgetItems();
    server.push({ text: "ok" });
    const pruned = pruneForWire(history, { budgetTokens: 10 });
    expect(pruned.report.pruned).toBe(true);
    expect((await send("responses", "gpt-5", pruned.messages)).error).toBeUndefined();
  });

  test("inline encrypted reasoning is accepted too", async () => {
    server = await serve();
    const history = await twoSteps("gpt-5");
    const encrypted = history.map((m) =>
      m.role !== "assistant" || typeof m.content === "string"
        ? m
        : ({ ...m, content: m.content.map((p) => (p.type === "reasoning" ? { ...p, providerOptions: { openai: { ...p.providerOptions?.openai, reasoningEncryptedContent: "gAAAAB-opaque" } } } : p)) } as ModelMessage),
    );
    server.forgetItems();
    server.push({ text: "ok" });
    const sent = await send("responses", "gpt-5", inlineHistory(encrypted, { reasoning: "inline-encrypted" }));
    expect(sent.error).toBeUndefined();
    expect(JSON.stringify(server.requests.at(-1)?.body.input)).toContain("gAAAAB-opaque");
  });
});
