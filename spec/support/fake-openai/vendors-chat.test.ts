// Vendor modes on the Chat Completions wire, read as raw bytes: each mode's quirks are on the wire as the real
// server sends them (see vendors/*.ts for which server does what).
import { afterEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { jsonSchema, streamText, tool } from "ai";
import { startFakeServer } from "../fake-openai.ts";
import { post } from "./testing.ts";
import type { FakeServer, Reply, StartOptions } from "./types.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOL_TURN: Reply = { reasoning: "Look it up.", text: "Checking.", toolCalls: [{ name: "weather", input: { city: "Oslo" } }, { name: "time", input: {} }] };

async function chat(options: Omit<StartOptions, "replies">, reply: Reply, body: Record<string, unknown> = {}) {
  server = await startFakeServer({ ...options, replies: [reply] });
  const res = await post(server, "/chat/completions", {
    model: "m",
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "hi" }],
    ...body,
  });
  expect(res.status).toBe(200);
  const data = res.events.map((e) => e.data);
  const chunks = data.filter((d) => typeof d === "object");
  const deltas = chunks.flatMap((c: any) => (c.choices ?? []).map((ch: any) => ch.delta));
  const calls = deltas.flatMap((d: any) => d.tool_calls ?? []);
  const joined = (field: string) => deltas.map((d: any) => d[field] ?? "").join("");
  return { res, data, chunks, deltas, calls, joined, done: data.at(-1) === "[DONE]" };
}

describe("mistral", () => {
  test("the whole call list, finish_reason and usage in one last chunk; calls without index or type; 9-char ids", async () => {
    const { chunks, calls, done } = await chat({ vendor: "mistral" }, TOOL_TURN);
    const last = chunks.at(-1) as any;
    expect(last.choices[0].finish_reason).toBe("tool_calls");
    expect(last.choices[0].delta.tool_calls).toHaveLength(2);
    expect(last.usage).toEqual({ prompt_tokens: expect.any(Number), total_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c).not.toHaveProperty("index");
      expect(c).not.toHaveProperty("type");
      expect(c.id).toMatch(/^[A-Za-z0-9]{9}$/);
    }
    expect(JSON.parse(calls[0].function.arguments)).toEqual({ city: "Oslo" });
    expect(done).toBe(true);
  });
});

describe("deepseek", () => {
  test("reasoning as reasoning_content; cache hit/miss usage in the finish chunk", async () => {
    const { chunks, deltas, calls, joined } = await chat({ vendor: "deepseek" }, { ...TOOL_TURN, usage: { input: 300, output: 80, cached: 256 } });
    expect(joined("reasoning_content")).toBe("Look it up.");
    expect(deltas[0]).toEqual({ role: "assistant", content: null, reasoning_content: "" });
    expect(joined("content")).toBe("Checking.");
    expect(calls[0].id).toMatch(/^call_00_[A-Za-z0-9]{24}$/);
    const finish = chunks.at(-1) as any;
    expect(finish.choices[0].finish_reason).toBe("tool_calls");
    expect(finish.usage).toMatchObject({ prompt_tokens: 300, prompt_cache_hit_tokens: 256, prompt_cache_miss_tokens: 44, prompt_tokens_details: { cached_tokens: 256 } });
    expect(finish.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c: any) => c.usage === null)).toBe(true);
  });
});

describe("llama.cpp", () => {
  test("reasoning_content, first call delta already carrying arguments, usage with timings in a choices:[] chunk", async () => {
    const { chunks, calls, joined } = await chat({ vendor: "llamacpp" }, TOOL_TURN);
    expect(joined("reasoning_content")).toBe("Look it up.");
    expect(calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "weather" } });
    expect(calls[0].function.arguments).not.toBe("");
    expect(calls[0].id).toMatch(/^[A-Za-z0-9]{32}$/);
    const usage = chunks.at(-1) as any;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({ completion_tokens: expect.any(Number), prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    expect(usage.timings).toMatchObject({ prompt_n: expect.any(Number), predicted_n: expect.any(Number) });
  });
});

describe("vllm", () => {
  test("reasoning_content; the first call delta has no arguments key; usage in a choices:[] chunk", async () => {
    const { chunks, calls, joined } = await chat({ vendor: "vllm" }, TOOL_TURN);
    expect(joined("reasoning_content")).toBe("Look it up.");
    const first = calls.find((c: any) => c.id);
    expect(first.function).toEqual({ name: "weather" });
    expect(first.id).toStartWith("chatcmpl-tool-");
    expect(calls.filter((c: any) => c.index === 0).map((c: any) => c.function.arguments ?? "").join("")).toBe('{"city":"Oslo"}');
    expect((chunks[0] as any).prompt_token_ids).toBeNull();
    expect((chunks.at(-1) as any).choices).toEqual([]);
    expect((chunks.at(-1) as any).usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
  });
});

describe("ollama", () => {
  test("reasoning as delta.reasoning; each call complete in one chunk; no [DONE]", async () => {
    const { res, deltas, calls, joined, done } = await chat({ vendor: "ollama" }, TOOL_TURN);
    expect(joined("reasoning")).toBe("Look it up.");
    expect(deltas.every((d: any) => d.role === "assistant")).toBe(true);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual({ id: expect.stringMatching(/^call_[a-z0-9]{8}$/), index: 0, type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } });
    expect(calls[1].index).toBe(1);
    expect(done).toBe(false);
    expect(res.text).not.toContain("[DONE]");
  });
});

describe("openrouter", () => {
  test("keep-alive comments, reasoning + reasoning_details, the encrypted signature, finish_reason twice with usage and cost", async () => {
    const { res, chunks, deltas, calls, joined } = await chat({ vendor: "openrouter" }, TOOL_TURN);
    expect(res.text).toStartWith(": OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n");
    expect(joined("reasoning")).toBe("Look it up.");
    const details = deltas.flatMap((d: any) => d.reasoning_details ?? []);
    expect(details.filter((d: any) => d.type === "reasoning.text").map((d: any) => d.text).join("")).toBe("Look it up.");
    const signature = details.find((d: any) => d.type === "reasoning.encrypted");
    expect(signature).toMatchObject({ data: expect.any(String), format: "google-gemini-v1", id: calls[0].id });
    const finishes = chunks.filter((c: any) => c.choices?.[0]?.finish_reason);
    expect(finishes.map((c: any) => c.choices[0].finish_reason)).toEqual(["tool_calls", "tool_calls"]);
    expect(finishes[0]).not.toHaveProperty("usage");
    expect((finishes[1] as any).usage).toMatchObject({ cost: expect.any(Number), is_byok: false });
    expect((chunks[0] as any).provider).toBe("Google AI Studio");
    expect(calls[0].id).toStartWith("tool_weather_");
  });

  test("an in-stream error: HTTP 200, a chunk with top-level error {code, message, metadata.raw}", async () => {
    const { chunks, joined, done } = await chat(
      { vendor: "openrouter" },
      { text: "Partial", streamError: { code: 400, message: "Token limit reached", raw: "upstream said no" } },
    );
    expect(joined("content")).toBe("Partial");
    const failing = chunks.find((c: any) => c.error) as any;
    expect(failing.error).toEqual({ code: 400, message: "Token limit reached", metadata: { raw: "upstream said no", provider_name: "Google AI Studio" } });
    expect(failing.choices[0].finish_reason).toBeNull();
    expect(chunks.some((c: any) => c.choices?.[0]?.finish_reason)).toBe(false);
    expect(done).toBe(true);
  });
});

describe("groq", () => {
  test("x_groq on the first and finish chunks; calls whole in one delta", async () => {
    const { chunks, calls } = await chat({ vendor: "groq" }, TOOL_TURN);
    expect((chunks[0] as any).x_groq).toMatchObject({ id: expect.stringMatching(/^req_/) });
    const finish = chunks.find((c: any) => c.choices?.[0]?.finish_reason) as any;
    expect(finish.x_groq.usage).toMatchObject({ prompt_tokens: expect.any(Number), queue_time: expect.any(Number) });
    expect(calls.map((c: any) => c.id)).toEqual(["functions.weather:0", "functions.time:1"]);
    expect(calls[0].function.arguments).toBe('{"city":"Oslo"}');
  });

  test("an in-stream error is an `event: error` frame, then the body ends", async () => {
    server = await startFakeServer({ vendor: "groq", replies: [{ text: "So far", streamError: { message: "Failed to call a function.", code: "tool_use_failed", type: "invalid_request_error" } }] });
    const res = await post(server, "/chat/completions", { model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(200);
    const last = res.events.at(-1)!;
    expect(last.event).toBe("error");
    expect(last.data).toEqual({ error: { message: "Failed to call a function.", type: "invalid_request_error", code: "tool_use_failed" } });
    expect(res.text).not.toContain("[DONE]");
  });
});

describe("xai", () => {
  test("reasoning tokens reported outside completion_tokens", async () => {
    const { chunks, joined } = await chat({ vendor: "xai" }, { reasoning: "Deep thought here.", text: "42", usage: { input: 10, output: 30 } });
    expect(joined("reasoning_content")).toBe("Deep thought here.");
    const usage = (chunks.at(-1) as any).usage;
    expect(usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens + usage.completion_tokens_details.reasoning_tokens).toBe(30);
    expect(usage.total_tokens).toBe(10 + 30);
  });
});

describe("azure", () => {
  test("a first choices:[] chunk with prompt_filter_results; content_filter_results on every choice", async () => {
    const { chunks, joined } = await chat({ vendor: "azure" }, { text: "Filtered hello" });
    expect(chunks[0]).toMatchObject({ choices: [], id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0 }] });
    const choices = chunks.flatMap((c: any) => c.choices);
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.every((c: any) => "content_filter_results" in c)).toBe(true);
    expect(choices.find((c: any) => c.delta.content === "Filtered")!.content_filter_results.hate).toEqual({ filtered: false, severity: "safe" });
    expect(joined("content")).toBe("Filtered hello");
  });
});

describe("every mode", () => {
  test.each(["openai", "azure", "mistral", "deepseek", "llamacpp", "vllm", "ollama", "openrouter", "groq", "xai"] as const)(
    "%s: finish on length; the non-streaming body carries the text and calls",
    async (vendor) => {
      const { chunks } = await chat({ vendor }, { text: "cut off mid", finish: "length" });
      expect(chunks.map((c: any) => c.choices?.[0]?.finish_reason).filter(Boolean)).toContain("length");
      server!.push(TOOL_TURN);
      const plain = await post(server!, "/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] });
      const message = plain.json.choices[0].message;
      expect(message.content).toBe("Checking.");
      expect(message.tool_calls.map((c: any) => c.function.name)).toEqual(["weather", "time"]);
      expect(plain.json.choices[0].finish_reason).toBe("tool_calls");
      expect(server!.errors).toEqual([]);
    },
  );

  test("reasoning rides on the non-streaming message in the vendor's field", async () => {
    for (const [vendor, field] of [["deepseek", "reasoning_content"], ["vllm", "reasoning_content"], ["llamacpp", "reasoning_content"], ["xai", "reasoning_content"], ["ollama", "reasoning"], ["groq", "reasoning"], ["openrouter", "reasoning"]] as const) {
      const s = await startFakeServer({ vendor, replies: [{ reasoning: "Because.", text: "Yes." }] });
      const res = await post(s, "/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] });
      expect(res.json.choices[0].message[field]).toBe("Because.");
      await s.close();
    }
  });

  test("a plain OpenAI in-stream error: data: {error}", async () => {
    const { chunks, done } = await chat({}, { streamError: { message: "The server had an error", code: "server_error" } });
    expect(chunks.at(-1)).toEqual({ error: { message: "The server had an error", type: "server_error", param: null, code: "server_error" } });
    expect(done).toBe(false);
  });
});

describe("gateway quirks", () => {
  test("toolIndexFrom: 1 numbers tool calls from 1", async () => {
    const { calls } = await chat({ vendor: "openai", chatQuirks: { toolIndexFrom: 1 } }, TOOL_TURN);
    expect([...new Set(calls.map((c: any) => c.index))]).toEqual([1, 2]);
  });

  test("emptyContinuationIdentity: continuation deltas carry id \"\" and name \"\"", async () => {
    const { calls } = await chat({ vendor: "deepseek", chatQuirks: { emptyContinuationIdentity: true } }, TOOL_TURN);
    const continuations = calls.filter((c: any) => c.id === "");
    expect(continuations.length).toBeGreaterThan(0);
    for (const c of continuations) expect(c).toMatchObject({ type: "function", function: { name: "" } });
    expect(calls.filter((c: any) => c.id !== "").map((c: any) => c.function.name)).toEqual(["weather", "time"]);
  });
});

describe("through the stock @ai-sdk/openai chat client", () => {
  const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }) });
  const run = async (vendor: StartOptions["vendor"]) => {
    server = await startFakeServer({ vendor, replies: [{ reasoning: "r", text: "Hi", toolCalls: [{ name: "weather", input: { city: "Oslo" } }] }] });
    const errors: any[] = [];
    const result = streamText({ model: createOpenAI({ baseURL: server.url, apiKey: "test" }).chat("m"), prompt: "W", tools: { weather }, maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    for await (const _ of result.fullStream);
    return { errors, calls: errors.length ? [] : (await result.toolCalls).map((c) => c.input) };
  };

  test("mistral's index-less tool call is rejected by its chunk schema (the failure issue 13 reports)", async () => {
    const { errors } = await run("mistral");
    expect(String(errors[0]?.message)).toContain("Type validation failed");
  });

  test.each(["deepseek", "llamacpp", "vllm", "ollama", "openrouter", "groq", "xai", "azure"] as const)("%s: tool calls parse", async (vendor) => {
    expect(await run(vendor)).toEqual({ errors: [], calls: [{ city: "Oslo" }] });
  });
});
