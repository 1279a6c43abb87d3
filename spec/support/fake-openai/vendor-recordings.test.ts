// Each vendor mode against the real recording of the same vendor (../shared/fixtures, read through
// shared-fixtures.ts): the fake's frames must have the recording's shape characteristics, class by class
// (role / reasoning / content / tool / finish / usage chunks): the same top-level keys, the same choice keys,
// the same keys on tool-call entries (so the same presence or absence of `index`, `type`, `arguments`), the same
// usage keys, the same framing (comments, [DONE]). Error bodies the fake writes from a recording must equal it.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeServer } from "../fake-openai.ts";
import { describeWithShared } from "../shared-fixtures.ts";
import { parseSse, post } from "./testing.ts";
import type { FakeServer, Reply, VendorMode } from "./types.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Shape = Map<string, Set<string>>;

/** Which kind of chunk this is, for comparing like with like. */
function classOf(chunk: any): string {
  const choices: any[] = chunk.choices ?? [];
  if (chunk.error) return "error";
  if (choices.length === 0) return chunk.usage ? "usage" : "empty";
  if (choices.some((c) => c.finish_reason != null)) return "finish";
  const d = choices[0].delta ?? {};
  if (d.tool_calls) return "tool";
  if ((d.reasoning_content ?? d.reasoning ?? d.reasoning_details) != null) return "reasoning";
  if (typeof d.content === "string" && d.content !== "") return "content";
  return d.role ? "role" : "other";
}

/** key-set facets per chunk class: "<class> top", "<class> choice", "tool call first/next", "<class> usage". */
function shapeOf(chunks: any[]): Shape {
  const shape: Shape = new Map();
  const add = (facet: string, o: unknown) => {
    if (!o || typeof o !== "object") return;
    const set = shape.get(facet) ?? new Set<string>();
    for (const k of Object.keys(o)) set.add(k);
    shape.set(facet, set);
  };
  for (const chunk of chunks) {
    const cls = classOf(chunk);
    add(`${cls} top`, chunk);
    for (const c of chunk.choices ?? []) add(`${cls} choice`, c);
    add(`${cls} usage`, chunk.usage);
    add(`${cls} error`, chunk.error);
    for (const c of chunk.choices ?? []) for (const call of c.delta?.tool_calls ?? []) add(call.id ? "tool call first" : "tool call next", call);
  }
  return shape;
}

const chunksOf = (raw: string) => parseSse(raw).map((e) => e.data).filter((d) => typeof d === "object");

/** Compare the facets both streams have; the recording must not have a facet the fake cannot produce. */
function expectSameShape(fake: string, recorded: string, facets?: string[]) {
  const a = shapeOf(chunksOf(fake));
  const b = shapeOf(chunksOf(recorded));
  const names = facets ?? [...b.keys()];
  for (const facet of names) {
    expect({ facet, keys: [...(a.get(facet) ?? [])].sort() }).toEqual({ facet, keys: [...(b.get(facet) ?? [])].sort() });
  }
  expect(fake.includes("data: [DONE]")).toBe(recorded.includes("data: [DONE]"));
  expect(/^: /m.test(fake)).toBe(/^: /m.test(recorded));
}

async function fakeChat(vendor: VendorMode, reply: Reply, body: Record<string, unknown> = {}) {
  server = await startFakeServer({ vendor, replies: [reply] });
  const res = await post(server, "/chat/completions", { model: "m", stream: true, messages: [{ role: "user", content: "hi" }], ...body });
  return res.text;
}

const usage = { stream_options: { include_usage: true } };
const weather = (location = "San Francisco") => ({ name: "weather", input: { location } });

describeWithShared("fixtures", "vendor modes have the shape of the real streams", (dir) => {
  const read = (rel: string) => readFileSync(join(dir, rel), "utf8");
  const streams = (rel: string) => read(join("real-streams", rel));

  test("mistral", async () => {
    expectSameShape(await fakeChat("mistral", { toolCalls: [weather()] }), streams("mistral/small-tool-single-chunk.sse"));
  });

  test("deepseek (thinking, tool call)", async () => {
    expectSameShape(await fakeChat("deepseek", { reasoning: "The user is asking for the weather.", toolCalls: [weather()] }, usage), streams("deepseek/reasoner-tool.sse"));
  });

  test("llama.cpp (reasoning, tool call, usage with timings)", async () => {
    expectSameShape(await fakeChat("llamacpp", { reasoning: "User wants weather.", toolCalls: [weather("Florence, Italy")] }, usage), streams("llamacpp/gpt-oss-20b-tool.sse"));
  });

  test("ollama (parallel calls, each whole; no [DONE])", async () => {
    const reply = { toolCalls: [{ name: "run_command", input: { command: "ls" } }, { name: "run_command", input: { command: "ls -l" } }] };
    expectSameShape(await fakeChat("ollama", reply), streams("ollama/qwen2.5-coder-parallel-tools.sse"));
  });

  test("groq (text, then parallel calls; x_groq)", async () => {
    const reply = { text: "I'll perform both.", toolCalls: [{ name: "add", input: { a: 2, b: 3 } }, { name: "multiply", input: { a: 2, b: 3 } }] };
    expectSameShape(await fakeChat("groq", reply, usage), streams("groq/kimi-k2-parallel-tools.sse"));
  });

  test("openrouter (Gemini: signature, parallel calls, finish twice)", async () => {
    const reply = { toolCalls: [{ name: "add", input: { a: 2, b: 3 } }, { name: "multiply", input: { a: 2, b: 3 } }] };
    const recorded = streams("openrouter/gemini-parallel-tools.sse");
    const fake = await fakeChat("openrouter", reply);
    expectSameShape(fake, recorded);
    const finishes = (raw: string) => chunksOf(raw).filter((c) => classOf(c) === "finish").length;
    expect(finishes(fake)).toBe(finishes(recorded));
    const signature = (raw: string) => chunksOf(raw).flatMap((c) => c.choices[0]?.delta?.reasoning_details ?? []).find((d: any) => d.type === "reasoning.encrypted");
    expect(Object.keys(signature(fake)).sort()).toEqual(Object.keys(signature(recorded)).sort());
  });

  test("openrouter in-stream error (the error chunk)", async () => {
    const fake = await fakeChat("openrouter", { streamError: { code: 400, message: "Token limit reached" } });
    expectSameShape(fake, streams("openrouter/minimax-in-stream-error.sse"), ["error top", "error choice", "error error", "error usage"]);
  });

  test("azure (prompt filter chunk, content filters)", async () => {
    expectSameShape(await fakeChat("azure", { toolCalls: [weather("Florence, Italy")] }, usage), streams("azure/gpt-5-mini-chat-tool.sse"));
  });

  test("vllm (Crusoe runs vLLM 0.24)", async () => {
    expectSameShape(await fakeChat("vllm", { text: "1, 2, 3, 4, 5" }, usage), streams("crusoe/llama-3.3-70b-text.sse"));
  });

  const eventTypes = (raw: string) => new Set(parseSse(raw).map((e) => e.data?.type).filter(Boolean));
  const items = (raw: string) => parseSse(raw).filter((e) => e.data?.type === "response.output_item.done").map((e) => e.data.item);
  const fakeResponses = async (vendor: VendorMode, reply: Reply) => {
    server = await startFakeServer({ vendor, replies: [reply] });
    return (await post(server, "/responses", { model: "m", stream: true, input: "hi" })).text;
  };

  test("lmstudio Responses (reasoning_text, no argument deltas)", async () => {
    const recorded = streams("lmstudio/glm-4.7-flash-responses-tool.sse");
    const fake = await fakeResponses("lmstudio", { reasoning: "The user is asking.", text: "I'll get the weather.", toolCalls: [weather()] });
    expect(eventTypes(fake)).toEqual(eventTypes(recorded));
    const keys = (raw: string) => items(raw).map((i) => [i.type, Object.keys(i).sort()]);
    expect(keys(fake)).toEqual(keys(recorded));
  });

  test("deepseek Responses (stateless: store false, reasoning_text, argument deltas)", async () => {
    const recorded = streams("deepseek/v4-flash-responses-tool.sse");
    const fake = await fakeResponses("deepseek", { reasoning: "I'll call the tool.", toolCalls: [{ name: "get_temperature", input: { city: "Tokyo" } }] });
    expect(eventTypes(fake)).toEqual(eventTypes(recorded));
    const stores = (raw: string) => parseSse(raw).filter((e) => e.data?.response).map((e) => e.data.response.store);
    expect(new Set(stores(fake))).toEqual(new Set(stores(recorded)));
    expect(items(fake).map((i) => i.type)).toEqual(items(recorded).map((i) => i.type));
  });

  test("xai Responses (reasoning summaries, as OpenAI)", async () => {
    const recorded = streams("xai/grok-code-fast-responses-reasoning-text.sse");
    expect(eventTypes(await fakeResponses("xai", { reasoning: "First, think.", text: "Sonoran food." }))).toEqual(eventTypes(recorded));
  });

  // Error bodies: the fake's, for the same numbers, equal the recorded ones.
  const contentFor = (tokens: number) => "x".repeat(tokens * 4 - JSON.stringify([{ role: "user", content: "" }]).length);
  const chatBody = (tokens: number, max_tokens: number) => ({ model: "m", messages: [{ role: "user", content: contentFor(tokens) }], max_tokens });

  test("OpenAI 400 context_length_exceeded equals openai/errors/400-context-length-exceeded.json", async () => {
    server = await startFakeServer({ vendor: "openai", models: { m: { contextWindow: 4097 } } });
    const res = await post(server, "/chat/completions", chatBody(3120, 1000));
    expect(res.status).toBe(400);
    expect(res.json).toEqual(JSON.parse(read("openai/errors/400-context-length-exceeded.json")));
  });

  test("OpenAI in-stream context error equals openai/errors/200-stream-error-context-length-exceeded.json", async () => {
    server = await startFakeServer({ models: { m: { contextWindow: 100 } } });
    const res = await post(server, "/responses", { model: "m", stream: true, input: "x".repeat(1000) });
    expect(res.events.find((e) => e.data.type === "error")!.data).toEqual(JSON.parse(read("openai/errors/200-stream-error-context-length-exceeded.json")));
  });

  test("vLLM's 400 equals real-streams/vllm/qwen2.5-7b-context-length-400.json", async () => {
    server = await startFakeServer({ vendor: "vllm", models: { m: { contextWindow: 4096 } } });
    const res = await post(server, "/chat/completions", chatBody(2778, 8000));
    expect(res.json).toEqual(JSON.parse(streams("vllm/qwen2.5-7b-context-length-400.json")));
  });

  test("DeepSeek's echo-rule 400 equals real-streams/deepseek/reasoning-content-missing-400.json", async () => {
    server = await startFakeServer({ vendor: "deepseek", replies: [{ reasoning: "Think.", toolCalls: [weather()] }] });
    const first = await post(server, "/chat/completions", { model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
    const id = first.events.flatMap((e) => e.data?.choices?.[0]?.delta?.tool_calls ?? []).find((c: any) => c.id).id;
    const res = await post(server, "/chat/completions", {
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "weather", arguments: "{}" } }] },
        { role: "tool", tool_call_id: id, content: "sunny" },
      ],
    });
    expect([res.status, res.json]).toEqual([400, JSON.parse(streams("deepseek/reasoning-content-missing-400.json"))]);
  });
});
