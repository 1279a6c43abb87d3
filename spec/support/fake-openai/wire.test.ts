// The bytes the fake streams: event order, framing and field shapes, checked without the AI SDK in between.
import { afterEach, describe, expect, test } from "bun:test";
import { startFakeServer } from "../fake-openai.ts";
import { outputItems, post } from "./testing.ts";
import type { FakeServer } from "./types.ts";

let server: FakeServer;
afterEach(() => server?.close());

describe("responses stream", () => {
  test("events follow the recorded order, with event: lines and sequence numbers", async () => {
    server = await startFakeServer({
      replies: [{ reasoning: "Plan it.", text: "Hi there", toolCalls: [{ name: "f", input: { a: 1 } }], usage: { input: 30, output: 12 } }],
    });
    const res = await post(server, "/responses", { model: "gpt-test", stream: true, input: "hi", instructions: "x" });
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    expect(res.events.map((e) => e.event)).toEqual(res.events.map((e) => e.data.type));
    expect(res.events.map((e) => e.data.sequence_number)).toEqual(res.events.map((_, i) => i));
    expect(res.events.map((e) => e.data.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const [rs, msg, fc] = outputItems(res.events);
    expect(rs.id).toMatch(/^rs_[0-9a-f]{50}$/);
    expect(rs.encrypted_content).toBeUndefined(); // only when include asks for it
    expect(msg).toMatchObject({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hi there" }] });
    expect(fc).toMatchObject({ type: "function_call", name: "f", arguments: '{"a":1}', status: "completed" });
    expect(fc.id).toMatch(/^fc_/);
    expect(fc.call_id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const completed = res.events.at(-1)!.data.response;
    expect(completed).toMatchObject({ status: "completed", model: "gpt-test", instructions: "x", store: true });
    expect(completed.id).toMatch(/^resp_/);
    expect(completed.output).toEqual([rs, msg, fc]);
    expect(completed.usage).toEqual({
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 42,
    });
    expect(res.text).not.toContain("[DONE]");
  });

  test("ids are unique across turns; encrypted_content appears when included", async () => {
    server = await startFakeServer({ replies: [{ reasoning: "a", text: "b" }, { reasoning: "a", text: "b" }] });
    const body = { model: "gpt-test", stream: true, input: "hi", store: false, include: ["reasoning.encrypted_content"] };
    const first = outputItems((await post(server, "/responses", body)).events);
    const second = outputItems((await post(server, "/responses", body)).events);
    const ids = [...first, ...second].map((i) => i.id);
    expect(new Set(ids).size).toBe(4);
    expect(first[0].encrypted_content).toStartWith("gAAAAA");
  });

  test("stream:false returns the completed response object", async () => {
    server = await startFakeServer({ replies: [{ text: "whole" }] });
    const res = await post(server, "/responses", { model: "gpt-test", input: "hi" });
    expect(res.json).toMatchObject({ object: "response", status: "completed", output: [{ type: "message" }] });
  });
});

describe("chat stream", () => {
  test("role delta, content, tool call deltas, finish_reason, usage chunk, [DONE]", async () => {
    server = await startFakeServer({ replies: [{ text: "Hi you", toolCalls: [{ name: "f", input: { long: "arguments here" } }] }] });
    const res = await post(server, "/chat/completions", {
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    const data = res.events.map((e) => e.data);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1);
    for (const c of chunks) expect(c).toMatchObject({ object: "chat.completion.chunk", model: "gpt-test" });
    expect(new Set(chunks.map((c: any) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
    const deltas = chunks.slice(0, -1).map((c: any) => c.choices[0]?.delta);
    expect(deltas.filter((d: any) => d.content).map((d: any) => d.content).join("")).toBe("Hi you");
    const calls = deltas.flatMap((d: any) => d.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "f", arguments: "" } });
    expect(calls[0].id).toMatch(/^call_/);
    expect(calls.slice(1).every((c: any) => c.id === undefined && c.index === 0)).toBe(true);
    expect(calls.map((c: any) => c.function.arguments).join("")).toBe('{"long":"arguments here"}');
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) } });
    expect(chunks.slice(0, -1).every((c: any) => c.usage === null)).toBe(true);
  });

  test("without include_usage there is no usage chunk and no usage field", async () => {
    server = await startFakeServer({ replies: [{ text: "x" }] });
    const res = await post(server, "/chat/completions", { model: "gpt-test", stream: true, messages: [{ role: "user", content: "hi" }] });
    const chunks = res.events.map((e) => e.data).slice(0, -1);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(chunks.every((c: any) => !("usage" in c) && c.choices.length === 1)).toBe(true);
  });
});

describe("raw replies", () => {
  test("are sent verbatim, and Responses items in them become referenceable", async () => {
    const item = { id: "msg_raw000001", type: "message", status: "completed", role: "assistant", content: [] };
    const raw = `event: response.output_item.done\ndata: ${JSON.stringify({ type: "response.output_item.done", output_index: 0, item })}\n\n`;
    server = await startFakeServer({ replies: [{ raw }, { text: "next" }] });
    const res = await post(server, "/responses", { model: "gpt-test", stream: true, input: "hi" });
    expect(res.text).toBe(raw);
    const next = await post(server, "/responses", { model: "gpt-test", stream: true, input: [{ type: "item_reference", id: "msg_raw000001" }, { role: "user", content: "more" }] });
    expect(next.status).toBe(200);
    expect(server.errors).toEqual([]);
  });
});
