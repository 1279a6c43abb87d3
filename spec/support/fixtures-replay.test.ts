// Real recorded OpenAI streams (shared/fixtures/openai, see its SOURCES.md) replayed byte for byte through the
// fake (`{ raw }` replies) into the AI SDK. Expectations are read from the recordings themselves, so this pins
// down what the SDK makes of the real wire, which is what the fake's own streams must imitate.
// Skips visibly when ../shared is absent, and fails when it is there without these recordings (shared-fixtures.ts).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, isStepCount, jsonSchema, streamText, tool, type ToolSet } from "ai";
import type { Reply } from "./fake-openai.ts";
import { post } from "./fake-openai/testing.ts";
import { describeWithShared, sharedPath } from "./shared-fixtures.ts";
import { useFakeServer } from "./use-fake-server.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const FIXTURES = sharedPath("fixtures/openai");
const read = (rel: string) => readFileSync(join(FIXTURES, rel), "utf8");

const serve = useFakeServer();

type Wire = "responses" | "chat";

/** `*.chunks.txt`: one JSON payload per line → SSE, split into one stream per response.created. */
function chunkStreams(rel: string, wire: Wire): string[] {
  const streams: string[][] = [];
  for (const line of read(rel).split("\n").filter((l) => l.trim() !== "")) {
    if (streams.length === 0 || (wire === "responses" && line.includes('"type":"response.created"'))) streams.push([]);
    streams.at(-1)!.push(`data: ${line}\n\n`);
  }
  return streams.map((s) => s.join("") + (wire === "chat" ? "data: [DONE]\n\n" : ""));
}

/** go-vcr cassettes: the raw SSE response body of every interaction (Bun.YAML parses the `body: |+` blocks). */
function cassetteBodies(rel: string): string[] {
  const doc = Bun.YAML.parse(read(rel)) as { interactions: { response: { body: string } }[] };
  return doc.interactions.map((i) => i.response.body);
}

function payloads(raw: string): any[] {
  return raw
    .split("\n")
    .filter((l) => l.startsWith("data:") && !l.includes("[DONE]"))
    .map((l) => JSON.parse(l.slice(5)));
}

type Expected = { texts: string[]; calls: { toolName: string; toolCallId: string; input: unknown }[]; usage?: { input: number; output: number; reasoning?: number } };

/** What the recording says the turn contained, read straight from its events. */
function expectedFrom(raw: string, wire: Wire): Expected {
  const events = payloads(raw);
  if (wire === "responses") {
    const items = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    const usage = events.find((e) => e.type === "response.completed")?.response.usage;
    // Text is what the deltas carried: some recordings were trimmed, so done events hold more than was streamed.
    const streamed = (id: string) =>
      events.filter((e) => e.type === "response.output_text.delta" && e.item_id === id).map((e) => e.delta).join("");
    return {
      texts: items.filter((i) => i.type === "message").map((i) => streamed(i.id)),
      calls: items.filter((i) => i.type === "function_call").map((i) => ({ toolName: i.name, toolCallId: i.call_id, input: JSON.parse(i.arguments) })),
      usage: usage && { input: usage.input_tokens, output: usage.output_tokens, reasoning: usage.output_tokens_details?.reasoning_tokens },
    };
  }
  const text = events.map((e) => e.choices?.[0]?.delta?.content ?? "").join("");
  const calls: { toolName: string; toolCallId: string; args: string }[] = [];
  for (const e of events)
    for (const d of e.choices?.[0]?.delta?.tool_calls ?? []) {
      calls[d.index] ??= { toolName: d.function.name, toolCallId: d.id, args: "" };
      calls[d.index]!.args += d.function.arguments ?? "";
    }
  const usage = events.find((e) => e.usage)?.usage;
  return {
    texts: text === "" ? [] : [text],
    calls: calls.map((c) => ({ toolName: c.toolName, toolCallId: c.toolCallId, input: JSON.parse(c.args) })),
    usage: usage && { input: usage.prompt_tokens, output: usage.completion_tokens },
  };
}

/** Replay recorded turns as consecutive steps of one streamText run; tools (from the recordings) execute. */
async function replay(wire: Wire, raws: string[]) {
  const server = await serve(...raws.map((raw): Reply => ({ raw })));
  const provider = createOpenAI({ baseURL: server.url, apiKey: "test" });
  const names = new Set(raws.flatMap((r) => expectedFrom(r, wire).calls.map((c) => c.toolName)));
  const tools: ToolSet = {};
  for (const name of names)
    tools[name] = tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }), execute: async () => "42" });
  const result = streamText({
    model: wire === "chat" ? provider.chat("gpt-test") : provider.responses("gpt-test"),
    prompt: "replay",
    tools,
    stopWhen: isStepCount(raws.length),
    maxRetries: 0,
    onError: () => {},
  });
  const errors: unknown[] = [];
  for await (const part of result.stream) if (part.type === "error") errors.push(part.error);
  const steps = await Promise.resolve(result.steps).catch(() => []);
  return { result, steps, errors, server };
}

async function expectFaithful(wire: Wire, raws: string[]) {
  const { steps, errors } = await replay(wire, raws);
  expect(errors).toEqual([]);
  // The strict server (useFakeServer) checks that the follow-ups referencing replayed items were accepted.
  expect(steps).toHaveLength(raws.length);
  raws.forEach((raw, i) => {
    const want = expectedFrom(raw, wire);
    const step = steps[i]!;
    const texts = step.content.filter((p) => p.type === "text").map((p) => (p as { text: string }).text);
    expect(wire === "chat" ? [texts.join("")].filter(Boolean) : texts).toEqual(want.texts);
    expect(step.toolCalls.map((c) => ({ toolName: c.toolName, toolCallId: c.toolCallId, input: c.input }))).toEqual(want.calls);
    if (want.usage) {
      expect([step.usage.inputTokens, step.usage.outputTokens]).toEqual([want.usage.input, want.usage.output]);
      if (want.usage.reasoning !== undefined) expect(step.usage.outputTokenDetails.reasoningTokens).toBe(want.usage.reasoning);
    }
  });
  return steps;
}

const cassettes = (dir: string) =>
  readdirSync(join(FIXTURES, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => join(dir, f));

describeWithShared("fixtures/openai/responses", "recorded Responses streams", () => {
  test("plain text answer (openai-issue-11239.2)", async () => {
    const steps = await expectFaithful("responses", chunkStreams("responses/openai-issue-11239.2.chunks.txt", "responses"));
    expect(steps[0]!.text).toBe("Verification code for issue-11239 is blue-42.");
  });

  test("reasoning then a function call (openai-issue-11239.1)", async () => {
    const steps = await expectFaithful("responses", chunkStreams("responses/openai-issue-11239.1.chunks.txt", "responses"));
    expect(steps[0]!.toolCalls[0]!.toolName).toBe("lookupVerificationCode");
  });

  test("four-stream agent loop with encrypted reasoning, ending in 570", async () => {
    const raws = chunkStreams("responses/openai-reasoning-encrypted-content.1.chunks.txt", "responses");
    expect(raws).toHaveLength(4);
    const steps = await expectFaithful("responses", raws);
    expect(steps[0]!.toolCalls[0]!.input).toEqual({ a: 12, b: 7, op: "add" });
    expect(steps[0]!.reasoningText).toContain("Calculating step-by-step");
    expect(steps[3]!.text).toBe("The final result is **570**.");
  });

  test("commentary and final_answer message phases", async () => {
    await expectFaithful("responses", chunkStreams("responses/openai-phase.1.chunks.txt", "responses"));
  });

  // ERRORS.md (written against @ai-sdk/openai 4.0.46) calls this retryable; the installed SDK exempts
  // insufficient_quota from retries (openai-stream-error.ts), while an HTTP 429 stays retryable by status.
  test("in-stream insufficient_quota error becomes a non-retryable 429", async () => {
    const { errors } = await replay("responses", chunkStreams("responses/openai-error.1.chunks.txt", "responses"));
    const error = errors[0] as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect([error.statusCode, error.isRetryable]).toEqual([429, false]);
    expect(error.message).toStartWith("You exceeded your current quota");
  });

  for (const rel of cassettes("responses"))
    test(`cassette ${rel}`, async () => {
      await expectFaithful("responses", cassetteBodies(rel));
    });
});

describeWithShared("fixtures/openai/chat", "recorded Chat Completions streams", () => {
  test("long text stream with full usage (openai-text.chunks.txt)", async () => {
    await expectFaithful("chat", chunkStreams("chat/openai-text.chunks.txt", "chat"));
  });

  for (const file of readdirSync(join(FIXTURES, "chat")).filter((f) => f.endsWith(".bin")))
    test(`openai-python snapshot ${file.slice(0, 8)}`, async () => {
      const steps = await expectFaithful("chat", [read(join("chat", file))]);
      if (file.startsWith("4cc50a61")) expect(steps[0]!.finishReason).toBe("length");
      if (file.startsWith("a247c49c")) expect(steps[0]!.toolCalls[0]!.input).toEqual({ city: "San Francisco", state: "CA" });
    });

  for (const rel of cassettes("chat"))
    test(`cassette ${rel}`, async () => {
      await expectFaithful("chat", cassetteBodies(rel));
    });
});

describeWithShared("fixtures/openai/errors", "recorded error bodies", () => {
  /** A recorded message with its ids turned into wildcards, so it can be matched against the fake's own. */
  const template = (rel: string) => {
    const message = JSON.parse(read(rel)).error.message as string;
    const escaped = message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`^${escaped.replace(/(call|msg|rs|fc)_[A-Za-z0-9]+/g, "$1_[A-Za-z0-9]+")}$`);
  };

  test("the fake's history rejections use the recorded texts and shapes", async () => {
    const server = await serve({ reasoning: "r", text: "t", toolCalls: [{ name: "f", input: {} }] });
    serve.allowRejections("each case is a history the real API refuses");
    const first = await post(server, "/responses", { model: "gpt-test", stream: true, input: "hi" });
    const [rs, msg, fc] = first.events.filter((e) => e.data.type === "response.output_item.done").map((e) => e.data.item);
    const user = { role: "user", content: "hi" };
    const output = { type: "function_call_output", call_id: fc.call_id, output: "x" };
    const cases: [string, unknown[]][] = [
      ["errors/400-no-tool-call-found.json", [user, { ...output, call_id: "call_orphan" }]],
      ["errors/400-missing-reasoning.json", [user, { type: "item_reference", id: msg.id }, rs, fc, output]],
      ["errors/400-function-call-missing-reasoning.json", [user, fc, output]],
      ["errors/400-reasoning-without-following-item.json", [user, { type: "item_reference", id: rs.id }, user]],
      ["errors/404-item-not-found.json", [user, { type: "item_reference", id: "msg_0ead8b004a3b165d" }]],
    ];
    for (const [rel, input] of cases) {
      const res = await post(server, "/responses", { model: "gpt-test", stream: true, input });
      const recorded = JSON.parse(read(rel));
      expect(String(res.status)).toBe(rel.slice("errors/".length, "errors/".length + 3));
      expect(Object.keys(res.json.error)).toEqual(Object.keys(recorded.error));
      expect({ ...res.json.error, message: "" }).toEqual({ ...recorded.error, message: "" });
      expect(res.json.error.message).toMatch(template(rel));
    }
  });

  test("recorded HTTP error bodies reach the SDK as APICallErrors", async () => {
    const cases = [
      ["errors/429-rate-limit-exceeded.json", 429, true],
      ["errors/429-insufficient-quota.json", 429, true],
      ["chat/reasoning-model-legacy-parameter-error.json", 400, false],
    ] as const;
    for (const [rel, status, retryable] of cases) {
      const server = await serve({ status, body: JSON.parse(read(rel)) });
      const provider = createOpenAI({ baseURL: server.url, apiKey: "test" });
      const result = streamText({ model: provider.chat("gpt-test"), prompt: "hi", maxRetries: 0, onError: () => {} });
      const errors: unknown[] = [];
      for await (const part of result.stream) if (part.type === "error") errors.push(part.error);
      expect((errors[0] as APICallError).statusCode).toBe(status);
      expect((errors[0] as APICallError).isRetryable).toBe(retryable);
      expect((errors[0] as APICallError).message).toBe(JSON.parse(read(rel)).error.message);
    }
  });
});
