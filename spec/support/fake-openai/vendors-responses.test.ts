// Vendor modes on the Responses wire: stateless servers (store:false always, item_reference refused, reasoning as
// reasoning_text, arguments only in .done for some), in-stream failures, and output cut off on length.
import { afterEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, isStepCount, jsonSchema, streamText, tool } from "ai";
import { startFakeServer } from "../fake-openai.ts";
import { outputItems, post } from "./testing.ts";
import type { FakeServer, Reply, StartOptions } from "./types.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function respond(options: Omit<StartOptions, "replies">, replies: Reply[], body: Record<string, unknown> = {}) {
  server = await startFakeServer({ ...options, replies });
  return post(server, "/responses", { model: "m", stream: true, input: "hi", ...body });
}

const types = (res: Awaited<ReturnType<typeof post>>) => res.events.map((e) => e.data.type);
const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }), execute: async () => "sunny" });

describe("stateless servers", () => {
  test.each(["stateless", "deepseek", "vllm", "lmstudio", "ollama", "llamacpp"] as const)("%s: every response says store:false, even when store:true was asked", async (vendor) => {
    const res = await respond({ vendor }, [{ text: "hi" }], { store: true });
    expect(res.events[0]!.data.response.store).toBe(false);
    expect(res.events.at(-1)!.data.response.store).toBe(false);
  });

  test("reasoning streams as reasoning_text content, not a summary", async () => {
    const res = await respond({ vendor: "vllm" }, [{ reasoning: "Think it through.", text: "Done." }]);
    const kinds = types(res);
    expect(kinds).toContain("response.reasoning_text.delta");
    expect(kinds.some((t) => t.includes("reasoning_summary"))).toBe(false);
    const deltas = res.events.filter((e) => e.data.type === "response.reasoning_text.delta").map((e) => e.data.delta);
    expect(deltas.join("")).toBe("Think it through.");
    const [rs] = outputItems(res.events);
    expect(rs).toMatchObject({ type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "Think it through." }] });
    expect(rs.encrypted_content).toBeUndefined();
  });

  test("LM Studio style: a function call with no argument deltas, only function_call_arguments.done", async () => {
    const res = await respond({ vendor: "lmstudio" }, [{ toolCalls: [{ name: "weather", input: { city: "Oslo" } }] }]);
    expect(types(res)).not.toContain("response.function_call_arguments.delta");
    const done = res.events.find((e) => e.data.type === "response.function_call_arguments.done")!;
    expect(done.data.arguments).toBe('{"city":"Oslo"}');
  });

  test("an item_reference is refused with ollama's 400 (not OpenAI's 'Item with id … not found'), recorded", async () => {
    const res = await respond({ vendor: "stateless" }, [{ text: "first" }, { text: "never" }]);
    const [msg] = outputItems(res.events);
    const next = await post(server!, "/responses", { model: "m", stream: true, input: [{ role: "user", content: "hi" }, { type: "item_reference", id: msg.id }, { role: "user", content: "more" }] });
    expect(next.status).toBe(400);
    expect(next.json).toEqual({ error: { message: 'input[1]: unknown input item type: "item_reference"', type: "invalid_request_error", param: null, code: null } });
    expect(server!.errors).toEqual([expect.stringContaining("stateless responses: input[1] is an item_reference")]);
    expect(server!.pending()).toBe(1);
  });

  test("the whole history inline (ids and all) is accepted; previous_response_id is not", async () => {
    const res = await respond({ vendor: "deepseek" }, [{ reasoning: "r", text: "first", toolCalls: [{ name: "weather", input: {} }] }, { text: "second" }, { text: "never" }]);
    const [rs, msg, fc] = outputItems(res.events);
    const inline = [
      { role: "user", content: "hi" },
      { type: "message", role: "assistant", id: msg.id, content: [{ type: "output_text", text: "first" }] }, // its reasoning item left out
      { type: "function_call", id: fc.id, call_id: fc.call_id, name: "weather", arguments: "{}" },
      { type: "function_call_output", call_id: fc.call_id, output: "sunny" },
    ];
    expect(rs.type).toBe("reasoning");
    expect((await post(server!, "/responses", { model: "m", stream: true, input: inline })).status).toBe(200);
    const chained = await post(server!, "/responses", { model: "m", stream: true, input: "more", previous_response_id: res.events[0]!.data.response.id });
    expect(chained.status).toBe(404);
    expect(server!.errors).toHaveLength(1);
  });

  test("through the AI SDK: its default store:true sends item_references and is refused; store:false works", async () => {
    const run = async (store?: boolean) => {
      await server?.close();
      server = await startFakeServer({ vendor: "ollama", replies: [{ reasoning: "Need weather.", text: "Looking.", toolCalls: [{ name: "weather", input: { city: "Oslo" } }] }, { text: "Sunny." }] });
      const model = createOpenAI({ baseURL: server.url, apiKey: "test" }).responses("gpt-oss:20b");
      const errors: unknown[] = [];
      const result = streamText({
        model,
        prompt: "Weather?",
        tools: { weather },
        stopWhen: isStepCount(3),
        maxRetries: 0,
        onError: ({ error }) => void errors.push(error),
        ...(store === false && { providerOptions: { openai: { store: false } } }),
      });
      for await (const _ of result.fullStream);
      return { errors, text: errors.length ? "" : await result.text, server };
    };
    const stored = await run();
    expect((stored.errors[0] as APICallError).statusCode).toBe(400);
    expect((stored.errors[0] as APICallError).message).toContain("item_reference");
    expect(stored.server.errors).toHaveLength(1);
    expect(stored.server.pending()).toBe(1);

    const inline = await run(false);
    expect(inline.errors).toEqual([]);
    expect(inline.text).toBe("Sunny.");
    expect(inline.server.requests).toHaveLength(2);
    const input = inline.server.requests[1]!.body.input as any[];
    expect(input.some((i) => i.type === "item_reference")).toBe(false);
    expect(input.map((i) => i.type ?? i.role)).toContain("function_call_output");
    expect(inline.server.errors).toEqual([]);
  });
});

describe("in-stream failures", () => {
  const error = { message: "The server had an error processing your request.", code: "server_error", type: "server_error" };

  test("default form: after the text, an `error` event then response.failed, over HTTP 200", async () => {
    const res = await respond({}, [{ text: "Partial answer", streamError: error }]);
    expect(res.status).toBe(200);
    const kinds = types(res);
    expect(kinds.slice(-2)).toEqual(["error", "response.failed"]);
    expect(kinds).toContain("response.output_text.delta");
    expect(kinds).not.toContain("response.completed");
    expect(res.events.at(-2)!.data.error).toEqual({ type: "server_error", code: "server_error", message: error.message, param: null });
    expect(res.events.at(-1)!.data.response).toMatchObject({ status: "failed", error: { code: "server_error", message: error.message } });
    expect(res.events.map((e) => e.data.sequence_number)).toEqual(res.events.map((_, i) => i));
  });

  test("forms: a bare error event, or response.failed alone", async () => {
    expect(types(await respond({ vendor: "xai" }, [{ streamError: { ...error, form: "error" } }])).slice(-1)).toEqual(["error"]);
    expect(types(await respond({ vendor: "xai" }, [{ streamError: { ...error, form: "failed" } }])).slice(-2)).toEqual(["response.in_progress", "response.failed"]);
  });

  test("the AI SDK surfaces it as an error, not a success", async () => {
    server = await startFakeServer({ replies: [{ streamError: { message: "Upstream overloaded", code: "server_is_overloaded", type: "server_error" } }] });
    const model = createOpenAI({ baseURL: server.url, apiKey: "test" }).responses("gpt-test");
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "Hi", maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    for await (const _ of result.fullStream);
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(errors[0], Object.getOwnPropertyNames(errors[0]))).toContain("Upstream overloaded");
  });
});

describe("output cut off (finish: length)", () => {
  test("Responses: status incomplete, reason max_output_tokens, ended by response.incomplete", async () => {
    const res = await respond({ vendor: "openai" }, [{ text: "I was saying", finish: "length" }]);
    const last = res.events.at(-1)!.data;
    expect(last.type).toBe("response.incomplete");
    expect(last.response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    expect(outputItems(res.events)[0].status).toBe("incomplete");
  });

  test.each(["responses", "chat"] as const)("the AI SDK reports finishReason length on the %s wire", async (wire) => {
    server = await startFakeServer({ replies: [{ text: "I was saying", finish: "length" }] });
    const provider = createOpenAI({ baseURL: server.url, apiKey: "test" });
    const result = streamText({ model: wire === "chat" ? provider.chat("gpt-test") : provider.responses("gpt-test"), prompt: "Hi", maxRetries: 0, onError: () => {} });
    for await (const _ of result.fullStream);
    expect(await result.text).toBe("I was saying");
    expect(await result.finishReason).toBe("length");
  });
});
