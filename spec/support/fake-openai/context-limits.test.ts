// Context windows (issue 14): enforced with each vendor's wording and status, recorded in `overflows` (not
// `errors`), and reported through each vendor's metadata endpoint. Servers come from useFakeServer, so every test
// also proves that overflows and metadata probes do not trip its strictness.
import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, streamText } from "ai";
import { estimateInputTokens } from "../fake-openai.ts";
import { useFakeServer } from "../use-fake-server.ts";
import { post } from "./testing.ts";
import type { FakeServer, OverflowStyle, VendorMode } from "./types.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const serve = useFakeServer();
const MODEL = "qwen2.5-coder-7b";
const WINDOW = 1000;
const models = { [MODEL]: { contextWindow: WINDOW, maxContext: 32768, maxOutputTokens: 4096 } };
/** About 1500 estimated tokens of history: over the 1000-token window on its own. */
const long = [{ role: "user", content: "x".repeat(6000) }];
const short = [{ role: "user", content: "hi" }];
const chat = (s: FakeServer, messages: unknown[], extra: Record<string, unknown> = {}) =>
  post(s, "/chat/completions", { model: MODEL, stream: true, messages, ...extra });
const root = (s: FakeServer) => s.url.replace(/\/v1$/, "");

describe("the estimate", () => {
  test("is ceil(chars / 4) over the JSON of messages|input, plus instructions, plus tools", () => {
    const messages = [{ role: "user", content: "abcd" }];
    const tools = [{ type: "function", name: "f" }];
    const chars = JSON.stringify(messages).length + "sys!".length + JSON.stringify(tools).length;
    expect(estimateInputTokens({ messages, instructions: "sys!", tools })).toBe(Math.ceil(chars / 4));
    expect(estimateInputTokens({ input: "hello" })).toBe(Math.ceil('"hello"'.length / 4));
  });
});

describe("overflow", () => {
  test("OpenAI chat: the real 400 context_length_exceeded naming the window; recorded in overflows, not errors; no reply consumed", async () => {
    const s = await serve.with({ vendor: "openai", models })({ text: "fits now" });
    const res = await chat(s, long, { max_tokens: 200 });
    expect(res.status).toBe(400);
    const input = estimateInputTokens({ messages: long });
    expect(res.json).toEqual({
      error: {
        message: `This model's maximum context length is ${WINDOW} tokens. However, you requested ${input + 200} tokens (${input} in the messages, 200 in the completion). Please reduce the length of the messages or completion.`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    });
    expect(s.overflows).toEqual([{ wire: "chat", model: MODEL, estimatedInput: input, requestedOutput: 200, contextWindow: WINDOW, style: "openai", status: 400, message: res.json.error.message }]);
    expect(s.errors).toEqual([]);
    expect(s.pending()).toBe(1);
    expect((await chat(s, short, { max_tokens: 200 })).status).toBe(200);
    expect(s.pending()).toBe(0);
  });

  test("input alone may fit while input + the output asked for does not", async () => {
    const s = await serve.with({ vendor: "openai", models })({ text: "ok" });
    const fits = [{ role: "user", content: "x".repeat(3000) }]; // ~760 tokens
    expect((await chat(s, fits, { max_tokens: 500 })).status).toBe(400);
    expect((await chat(s, fits, { max_completion_tokens: 100 })).status).toBe(200);
    expect((await chat(s, long)).status).toBe(400); // an overflow, not "no reply left" (a 500)
    expect(s.overflows.map((o) => o.requestedOutput)).toEqual([500, 0]);
    expect(s.overflows[1]!.message).toMatch(/^This model's maximum context length is 1000 tokens\. However, your messages resulted in \d+ tokens\./);
  });

  test("OpenAI Responses, streaming: HTTP 200, then the in-stream error event and response.failed", async () => {
    const s = await serve.with({ models })({ text: "never" });
    serve.allowLeftovers("the only request overflows");
    const res = await post(s, "/responses", { model: MODEL, stream: true, input: long, max_output_tokens: 100 });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.data.type)).toEqual(["response.created", "response.in_progress", "error", "response.failed"]);
    expect(res.events[2]!.data).toEqual({
      type: "error",
      sequence_number: 2,
      error: { type: "invalid_request_error", code: "context_length_exceeded", message: "Your input exceeds the context window of this model. Please adjust your input and try again.", param: "input" },
    });
    expect(res.events[3]!.data.response.error.code).toBe("context_length_exceeded");
    expect(s.overflows[0]).toMatchObject({ wire: "responses", status: 200 });
    const plain = await post(s, "/responses", { model: MODEL, input: long });
    expect(plain.status).toBe(400);
    expect(plain.json.error).toMatchObject({ code: "context_length_exceeded", param: "input" });
  });

  test("vLLM: its 400 naming the window, in both of its forms", async () => {
    const s = await serve.with({ vendor: "vllm", models })();
    const outputTooLarge = await chat(s, short, { max_tokens: 2000 });
    expect(outputTooLarge.status).toBe(400);
    expect(outputTooLarge.json.error).toMatchObject({ type: "BadRequestError", param: null, code: 400 });
    expect(outputTooLarge.json.error.message).toMatch(/^'max_tokens' or 'max_completion_tokens' is too large: 2000\. This model's maximum context length is 1000 tokens and your request has \d+ input tokens/);
    const promptTooLong = await chat(s, long);
    expect(promptTooLong.json.error).toMatchObject({ type: "BadRequestError", param: "input_tokens", code: 400 });
    expect(promptTooLong.json.error.message).toMatch(/^This model's maximum context length is 1000 tokens\. However, you requested 0 output tokens and your prompt contains at least \d+ input tokens/);
    const responses = await post(s, "/responses", { model: MODEL, stream: true, input: long });
    expect(responses.status).toBe(400);
    expect(s.overflows.map((o) => o.wire)).toEqual(["chat", "chat", "responses"]);
  });

  test("llama.cpp: exceed_context_size_error with n_prompt_tokens and n_ctx; only the prompt counts", async () => {
    const s = await serve.with({ vendor: "llamacpp", models })({ text: "fits" });
    expect((await chat(s, short, { max_tokens: 5000 })).status).toBe(200);
    const res = await chat(s, long);
    const input = estimateInputTokens({ messages: long });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: { code: 400, message: `request (${input} tokens) exceeds the available context size (${WINDOW} tokens), try increasing it`, type: "exceed_context_size_error", n_prompt_tokens: input, n_ctx: WINDOW },
    });
  });

  test("OpenRouter names the limit; Groq names none", async () => {
    const or = await serve.with({ vendor: "openrouter", models })();
    const a = await chat(or, long, { max_tokens: 100 });
    expect(a.status).toBe(400);
    expect(a.json.error).toMatchObject({ code: 400, metadata: { provider_name: null } });
    expect(a.json.error.message).toMatch(/^This endpoint's maximum context length is 1000 tokens\. However, you requested about \d+ tokens \(\d+ of text input, 100 in the output\)\./);
    const groq = await serve.with({ vendor: "groq", models })();
    const b = await chat(groq, long);
    expect(b.json).toEqual({ error: { message: "Please reduce the length of the messages or completion.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } });
    expect(b.json.error.message).not.toMatch(/\d/);
  });

  test("the wording can be chosen apart from the vendor; models without a window are not limited", async () => {
    const s = await serve.with({ vendor: "ollama", models, overflow: "groq" satisfies OverflowStyle })({ text: "unlimited" });
    expect((await chat(s, long)).json.error.message).toBe("Please reduce the length of the messages or completion.");
    expect((await post(s, "/chat/completions", { model: "other-model", stream: true, messages: long })).status).toBe(200);
  });

  test("through the AI SDK: a 400 that is not retried (chat), and the in-stream form as a 400 (Responses)", async () => {
    const s = await serve.with({ models })();
    const provider = createOpenAI({ baseURL: s.url, apiKey: "test" });
    for (const model of [provider.chat(MODEL), provider.responses(MODEL)]) {
      const errors: unknown[] = [];
      const result = streamText({ model, messages: [{ role: "user", content: "x".repeat(6000) }], onError: ({ error }) => void errors.push(error) });
      for await (const _ of result.fullStream);
      expect(APICallError.isInstance(errors[0])).toBe(true);
      expect((errors[0] as APICallError).statusCode).toBe(400);
      expect((errors[0] as APICallError).isRetryable).toBe(false);
    }
    expect(s.requests).toHaveLength(2); // one each: nothing retried
    expect(s.overflows).toHaveLength(2);
  });
});

describe("metadata endpoints", () => {
  const get = async (s: FakeServer, path: string) => {
    const res = await fetch(root(s) + path);
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, json, text };
  };

  test("vLLM: GET /v1/models reports max_model_len", async () => {
    const s = await serve.with({ vendor: "vllm", models })();
    const res = await get(s, "/v1/models");
    expect(res.json.data).toEqual([expect.objectContaining({ id: MODEL, object: "model", owned_by: "vllm", max_model_len: WINDOW })]);
  });

  test("LM Studio: GET /api/v0/models reports max_context_length and the loaded_context_length", async () => {
    const s = await serve.with({ vendor: "lmstudio", models })();
    const res = await get(s, "/api/v0/models");
    expect(res.json.data).toEqual([expect.objectContaining({ id: MODEL, state: "loaded", max_context_length: 32768, loaded_context_length: WINDOW })]);
    expect((await get(s, `/api/v0/models/${MODEL}`)).json.loaded_context_length).toBe(WINDOW);
    expect((await get(s, "/api/v0/models/nope")).status).toBe(404);
  });

  test("llama.cpp: GET /props reports default_generation_settings.n_ctx", async () => {
    const s = await serve.with({ vendor: "llamacpp", models })();
    const props = await get(s, "/props");
    expect(props.json.default_generation_settings.n_ctx).toBe(WINDOW);
    expect(props.json).toMatchObject({ total_slots: 1, model_alias: MODEL, build_info: expect.any(String) });
    expect((await get(s, "/v1/models")).json.data[0].meta.n_ctx_train).toBe(32768);
  });

  test("ollama: POST /api/show reports the model's context_length and the num_ctx it runs with", async () => {
    const s = await serve.with({ vendor: "ollama", models })();
    const res = await post(s, "/../api/show", { model: MODEL });
    expect(res.status).toBe(200);
    expect(res.json.model_info["general.architecture"]).toBe("qwen2");
    expect(res.json.model_info["qwen2.context_length"]).toBe(32768);
    expect(res.json.parameters).toMatch(/^num_ctx\s+1000$/m);
    const missing = await post(s, "/../api/show", { model: "nope" });
    expect([missing.status, missing.json]).toEqual([404, { error: "model 'nope' not found" }]);
  });

  test("OpenRouter: GET /v1/models reports context_length", async () => {
    const s = await serve.with({ vendor: "openrouter", models })();
    const [card] = (await get(s, "/v1/models")).json.data;
    expect(card).toMatchObject({ id: MODEL, context_length: WINDOW, top_provider: { context_length: WINDOW, max_completion_tokens: 4096 } });
  });

  test.each([
    ["vllm", "/props", { detail: "Not Found" }],
    ["llamacpp", "/api/v0/models", { error: { code: 404, message: "File Not Found", type: "not_found_error" } }],
    ["openai", "/props", { error: { message: "Invalid URL (GET /props)", type: "invalid_request_error", param: null, code: null } }],
    ["lmstudio", "/props", { error: "Unexpected endpoint or method. (GET /props)" }],
  ] as [VendorMode, string, unknown][])("%s: a probe it does not serve (%s) gets its own 404, recorded, not a protocol error", async (vendor, path, body) => {
    const s = await serve.with({ vendor, models })();
    const res = await get(s, path);
    expect([res.status, res.json]).toEqual([404, body]);
    expect(s.requests.map((r) => [r.wire, r.method, r.path])).toEqual([["other", "GET", path]]);
    expect(s.errors).toEqual([]);
  });

  test("ollama's 404 is gin's plain text; other paths are still protocol errors; no vendor keeps the old strictness", async () => {
    const s = await serve.with({ vendor: "ollama", models })();
    expect(await get(s, "/props")).toMatchObject({ status: 404, text: "404 page not found" });
    expect(s.errors).toEqual([]);
    expect((await get(s, "/v1/embeddings")).status).toBe(404);
    const plain = await serve.with({ models })();
    expect((await get(plain, "/v1/models")).status).toBe(404);
    serve.allowRejections("non-probe paths, and probes without a vendor, are protocol errors");
    expect(s.errors).toHaveLength(1);
    expect(plain.errors).toHaveLength(1);
  });
});
