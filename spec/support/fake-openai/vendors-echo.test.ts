// Echo rules: history a vendor insists on getting back. A follow-up that drops it is a protocol error (recorded
// in `errors`, the vendor's real 400, no reply consumed); one that carries it goes through.
import { afterEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, isStepCount, jsonSchema, streamText, tool } from "ai";
import { startFakeServer } from "../fake-openai.ts";
import { post } from "./testing.ts";
import type { FakeServer, VendorMode } from "./types.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = { role: "user", content: "Weather in Oslo?" };

/** Step 1 of a tool turn, streamed: what the client saw (call id, reasoning, details). */
async function firstStep(vendor: VendorMode, reasoning: string | undefined) {
  server = await startFakeServer({ vendor, replies: [{ reasoning, toolCalls: [{ name: "weather", input: { city: "Oslo" } }] }, { text: "Sunny." }, { text: "Again." }] });
  const res = await post(server, "/chat/completions", { model: "m", stream: true, messages: [user] });
  const deltas = res.events.filter((e) => typeof e.data === "object").flatMap((e) => e.data.choices.map((c: any) => c.delta));
  const call = deltas.flatMap((d: any) => d.tool_calls ?? []).find((c: any) => c.id);
  const details = deltas.flatMap((d: any) => d.reasoning_details ?? []);
  return { id: call.id as string, reasoning: deltas.map((d: any) => d.reasoning_content ?? d.reasoning ?? "").join(""), details };
}

const followUp = (id: string, assistant: Record<string, unknown> = {}) => ({
  model: "m",
  stream: true,
  messages: [
    user,
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }], ...assistant },
    { role: "tool", tool_call_id: id, content: "sunny" },
  ],
});

describe("deepseek: reasoning_content of a tool step must come back", () => {
  test("dropped → DeepSeek's 400, recorded; sent back → accepted, in every later request too", async () => {
    const step = await firstStep("deepseek", "I should call weather.");
    const dropped = await post(server!, "/chat/completions", followUp(step.id));
    expect(dropped.status).toBe(400);
    expect(dropped.json).toEqual({
      error: { message: "The `reasoning_content` in the thinking mode must be passed back to the API.", type: "invalid_request_error", param: null, code: "invalid_request_error" },
    });
    expect(server!.errors).toEqual([expect.stringContaining(`deepseek: messages[1] assistant tool_calls ${step.id} came from a thinking step`)]);
    expect(server!.pending()).toBe(2);

    const kept = followUp(step.id, { reasoning_content: step.reasoning });
    expect((await post(server!, "/chat/completions", kept)).status).toBe(200);
    const later = { ...kept, messages: [...kept.messages, { role: "assistant", content: "Sunny." }, { role: "user", content: "And now?" }] };
    expect((await post(server!, "/chat/completions", later)).status).toBe(200);
    const laterDropped = { ...later, messages: later.messages.map((m: any) => (m.tool_calls ? { ...m, reasoning_content: undefined } : m)) };
    server!.push({ text: "never" });
    expect((await post(server!, "/chat/completions", laterDropped)).status).toBe(400);
    expect(server!.errors).toHaveLength(2);
  });

  test("a tool step that did not reason owes nothing", async () => {
    const step = await firstStep("deepseek", undefined);
    expect((await post(server!, "/chat/completions", followUp(step.id))).status).toBe(200);
    expect(server!.errors).toEqual([]);
  });

  test("@ai-sdk/openai drops reasoning_content, and the fake catches it on step 2", async () => {
    server = await startFakeServer({ vendor: "deepseek", replies: [{ reasoning: "Need weather.", toolCalls: [{ name: "weather", input: { city: "Oslo" } }] }, { text: "Sunny." }] });
    const model = createOpenAI({ baseURL: server.url, apiKey: "test" }).chat("deepseek-v4-flash");
    const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }), execute: async () => "sunny" });
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "Weather?", tools: { weather }, stopWhen: isStepCount(3), maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    for await (const _ of result.fullStream);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(400);
    expect((errors[0] as APICallError).message).toContain("reasoning_content");
    expect(server.errors).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });
});

describe("openrouter: the reasoning_details (thought signature) of a tool turn must come back", () => {
  test("dropped → OpenRouter's 400 with the upstream's reason in metadata.raw; sent back → accepted", async () => {
    const step = await firstStep("openrouter", "Thinking about weather.");
    const dropped = await post(server!, "/chat/completions", followUp(step.id, { reasoning: step.reasoning }));
    expect(dropped.status).toBe(400);
    expect(dropped.json.error).toMatchObject({ message: "Provider returned error", code: 400, metadata: { provider_name: "Google AI Studio" } });
    expect(dropped.json.error.metadata.raw).toContain("Gemini models require OpenRouter reasoning details to be preserved in each request.");
    expect(dropped.json.error.metadata.raw).toContain("Function call is missing a thought_signature in functionCall parts.");
    expect(dropped.json.error.metadata.raw).toContain("`default_api:weather`");
    expect(server!.errors).toEqual([expect.stringContaining("openrouter: messages[1]")]);

    const textOnly = step.details.filter((d: any) => d.type !== "reasoning.encrypted");
    expect((await post(server!, "/chat/completions", followUp(step.id, { reasoning_details: textOnly }))).status).toBe(400);
    expect((await post(server!, "/chat/completions", followUp(step.id, { reasoning_details: step.details }))).status).toBe(200);
    expect(server!.errors).toHaveLength(2);
  });
});
