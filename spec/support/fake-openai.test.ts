// The fake OpenAI server driven by the real AI SDK over both wires: what a shiro e2e test will actually see.
import { afterEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, isStepCount, jsonSchema, streamText, tool, type ModelMessage } from "ai";
import { startFakeServer, type FakeServer, type Reply } from "./fake-openai.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Wire = "responses" | "chat";

async function setup(...replies: Reply[]) {
  server = await startFakeServer({ replies });
  const provider = createOpenAI({ baseURL: server.url, apiKey: "test" });
  return {
    server,
    model: (wire: Wire, id = "gpt-test") => (wire === "chat" ? provider.chat(id) : provider.responses(id)),
  };
}

/** Consume a streamText result; stream errors are collected instead of logged. */
async function drain(result: { stream: AsyncIterable<{ type: string; error?: unknown }> }) {
  const errors: unknown[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.stream) if (part.type === "error") errors.push(part.error);
  } catch (error) {
    thrown = error;
  }
  return { errors, thrown };
}

const weather = tool({
  description: "Current weather for a city",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  }),
  execute: async ({ city }) => `sunny in ${city}`,
});

const quiet = { onError: () => {}, maxRetries: 0 };

describe.each(["responses", "chat"] as const)("%s wire through the AI SDK", (wire) => {
  test("a text reply streams and parses, with scripted usage", async () => {
    const { server, model } = await setup({ text: "Hello there, friend.", usage: { input: 11, output: 7 } });
    const result = streamText({ model: model(wire), instructions: "Be brief.", prompt: "Hi", ...quiet });
    expect((await drain(result)).errors).toEqual([]);
    expect(await result.text).toBe("Hello there, friend.");
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens, usage.totalTokens]).toEqual([11, 7, 18]);
    expect(server.requests.map((r) => [r.wire, r.path])).toEqual([[wire, `/v1/${wire === "chat" ? "chat/completions" : "responses"}`]]);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer test");
    expect(server.errors).toEqual([]);
    expect(server.pending()).toBe(0);
  });

  test("usage defaults to plausible non-zero numbers", async () => {
    const { model } = await setup({ text: "Some words here." });
    const result = streamText({ model: model(wire), prompt: "Hi", ...quiet });
    await drain(result);
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  test("parallel tool calls execute, and the follow-up request carries each call and its output", async () => {
    const { server, model } = await setup(
      { text: "Checking.", toolCalls: [{ name: "weather", input: { city: "Paris" } }, { name: "weather", input: { city: "Rome" }, id: "call_fixedRomeId000000001" }] },
      { text: "Sunny in both." },
    );
    const result = streamText({ model: model(wire), prompt: "Weather?", tools: { weather }, stopWhen: isStepCount(3), ...quiet });
    expect((await drain(result)).errors).toEqual([]);
    expect(await result.text).toBe("Sunny in both.");
    const steps = await result.steps;
    expect(steps[0]!.toolCalls.map((c) => c.input)).toEqual([{ city: "Paris" }, { city: "Rome" }]);
    expect(steps[0]!.toolCalls[1]!.toolCallId).toBe("call_fixedRomeId000000001");
    expect(steps[0]!.finishReason).toBe("tool-calls");
    expect(server.requests).toHaveLength(2);
    const second = JSON.stringify(server.requests[1]!.body);
    for (const call of steps[0]!.toolCalls) expect(second).toContain(call.toolCallId);
    expect(second).toContain("sunny in Rome");
    expect(server.errors).toEqual([]);
  });

  test("string tool input is sent verbatim, so malformed arguments reach the client", async () => {
    const { model } = await setup({ toolCalls: [{ name: "weather", input: '{"city": "Par' }] });
    const result = streamText({ model: model(wire), prompt: "Weather?", tools: { weather }, ...quiet });
    await drain(result);
    const content = await result.content;
    const failed = content.find((p) => p.type === "tool-error");
    expect(failed).toBeDefined();
    expect(JSON.stringify(failed)).toContain('{\\"city\\": \\"Par');
  });

  test("non-ASCII text and arguments survive chunking", async () => {
    const input = { city: "Zürich! 🎉🎉🎉🎉🎉🎉" }; // emoji straddle fragment boundaries
    const { model } = await setup({ text: "Grüße 👋 aus 東京", toolCalls: [{ name: "weather", input }] });
    const result = streamText({ model: model(wire), prompt: "Hi", tools: { weather }, ...quiet });
    await drain(result);
    expect(await result.text).toBe("Grüße 👋 aus 東京");
    expect((await result.toolCalls)[0]!.input).toEqual(input);
  });

  test("generateText (non-streaming) gets a full response body", async () => {
    const { server, model } = await setup({ text: "Plain body." });
    const result = await generateText({ model: model(wire), prompt: "Hi", maxRetries: 0 });
    expect(result.text).toBe("Plain body.");
    expect(server.requests[0]!.body.stream ?? false).toBe(false);
  });

  test("a request with no reply left gets a 500 and is recorded", async () => {
    const { server, model } = await setup();
    const result = streamText({ model: model(wire), prompt: "Hi", ...quiet });
    const { errors } = await drain(result);
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(500);
    expect((errors[0] as APICallError).message).toBe("fake server: unexpected request #1 (no scripted reply left)");
    expect(server.errors).toEqual(["unexpected request #1 (no scripted reply left)"]);
  });

  test("a 429 with retry-after is delivered to the client, which retries into the next reply", async () => {
    const { server, model } = await setup({ status: 429, headers: { "retry-after": "0" } }, { text: "After the wait." });
    const result = streamText({ model: model(wire), prompt: "Hi", onError: () => {} });
    await drain(result);
    expect(await result.text).toBe("After the wait.");
    expect(server.requests).toHaveLength(2);

    server.push({ status: 429, headers: { "retry-after": "7" } });
    const failing = streamText({ model: model(wire), prompt: "Hi", ...quiet });
    const [error] = (await drain(failing)).errors as APICallError[];
    expect(error!.statusCode).toBe(429);
    expect(error!.isRetryable).toBe(true);
    expect(error!.responseHeaders?.["retry-after"]).toBe("7");
    expect(JSON.parse(error!.responseBody!).error.code).toBe("rate_limit_exceeded");
    expect(server.errors).toEqual([]); // scripted errors are not protocol violations
  });

  test("reset drops the connection mid-stream: the client errors", async () => {
    const { model } = await setup({ fault: "reset", text: "partial answer" });
    const { errors, thrown } = await drain(streamText({ model: model(wire), prompt: "Hi", ...quiet }));
    expect(thrown ?? errors[0]).toBeDefined();
  });

  test("truncate ends the body without completion: the SDK reports an interrupted finish", async () => {
    const { model } = await setup({ fault: "truncate", text: "partial answer" });
    const result = streamText({ model: model(wire), prompt: "Hi", ...quiet });
    await drain(result);
    expect(await result.text).toBe("partial answer");
    expect(await result.finishReason).toBe("interrupted");
  });

  test("malformed sends a garbage SSE line: the client sees a parse error", async () => {
    const { model } = await setup({ fault: "malformed", text: "partial" });
    const result = streamText({ model: model(wire), prompt: "Hi", ...quiet });
    const { errors } = await drain(result);
    expect((errors[0] as Error).name).toBe("AI_JSONParseError");
    expect(await result.finishReason).toBe("error");
  });

  test("hang sends headers then nothing: an abort timeout ends it instead of a hang", async () => {
    const { model } = await setup({ fault: "hang", text: "so far" });
    const started = Date.now();
    const result = streamText({ model: model(wire), prompt: "Hi", abortSignal: AbortSignal.timeout(200), ...quiet });
    await drain(result);
    await expect(Promise.resolve(result.finishReason)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("delayMs slows the stream down", async () => {
    const { model } = await setup({ text: "one two three four", delayMs: 15 });
    const started = Date.now();
    await drain(streamText({ model: model(wire), prompt: "Hi", ...quiet }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });
});

describe("responses wire specifics", () => {
  test("a reasoning reply parses, and the follow-up references rs_ and msg_ items that validate", async () => {
    const { server, model } = await setup(
      { reasoning: "Need the weather first.", text: "Let me look.", toolCalls: [{ name: "weather", input: { city: "Oslo" } }] },
      { reasoning: "Now answer.", text: "Sunny in Oslo.", usage: { input: 40, output: 20 } },
    );
    const result = streamText({ model: model("responses"), prompt: "Weather?", tools: { weather }, stopWhen: isStepCount(3), ...quiet });
    expect((await drain(result)).errors).toEqual([]);
    expect(await result.reasoningText).toBe("Now answer.");
    expect((await result.steps)[0]!.reasoningText).toBe("Need the weather first.");
    expect((await result.usage).outputTokenDetails.reasoningTokens).toBeGreaterThan(0);
    const input = server.requests[1]!.body.input as any[];
    expect(input.map((i) => i.type ?? i.role)).toEqual(["user", "item_reference", "item_reference", "function_call", "function_call_output"]);
    expect(input[1].id).toStartWith("rs_");
    expect(input[2].id).toStartWith("msg_");
    expect(server.errors).toEqual([]);
  });

  test("store:false with a reasoning model sends encrypted reasoning inline, which validates", async () => {
    const { server, model } = await setup(
      { reasoning: "Think.", toolCalls: [{ name: "weather", input: { city: "Lima" } }] },
      { text: "Done." },
    );
    const result = streamText({
      model: model("responses", "gpt-5"),
      prompt: "Weather?",
      tools: { weather },
      stopWhen: isStepCount(3),
      providerOptions: { openai: { store: false } },
      ...quiet,
    });
    await drain(result);
    expect(await result.text).toBe("Done.");
    const first = server.requests[0]!.body;
    expect(first.include).toEqual(["reasoning.encrypted_content"]);
    const reasoning = (server.requests[1]!.body.input as any[]).find((i) => i.type === "reasoning");
    expect(reasoning.id).toStartWith("rs_");
    expect(reasoning.encrypted_content).toStartWith("gAAAAA");
    expect(server.errors).toEqual([]);
  });

  test("after forgetItems(), replaying the history gets the real 404", async () => {
    const { server, model } = await setup({ text: "First answer." }, { text: "never sent" });
    const first = streamText({ model: model("responses"), prompt: "Hi", ...quiet });
    await drain(first);
    const history: ModelMessage[] = [{ role: "user", content: "Hi" }, ...(await first.response).messages, { role: "user", content: "More" }];
    server.forgetItems();
    const second = streamText({ model: model("responses"), messages: history, ...quiet });
    const [error] = (await drain(second)).errors as APICallError[];
    expect(error!.statusCode).toBe(404);
    expect(error!.message).toMatch(/^Item with id 'msg_[0-9a-f]+' not found\.$/);
    expect(server.errors).toHaveLength(1);
    expect(server.pending()).toBe(1); // a rejected request consumes nothing
  });

  test("previousResponseId chaining validates against the stored chain", async () => {
    const { server, model } = await setup({ toolCalls: [{ name: "weather", input: { city: "Kyiv" } }] }, { text: "Sunny." });
    const first = streamText({ model: model("responses"), prompt: "Weather?", tools: { weather }, ...quiet });
    await drain(first);
    const responseId = ((await first.providerMetadata) as any).openai.responseId as string;
    const history: ModelMessage[] = [{ role: "user", content: "Weather?" }, ...(await first.response).messages];
    const second = streamText({
      model: model("responses"),
      messages: history,
      tools: { weather },
      providerOptions: { openai: { previousResponseId: responseId } },
      ...quiet,
    });
    await drain(second);
    expect(await second.text).toBe("Sunny.");
    expect(server.requests[1]!.body.previous_response_id).toBe(responseId);
    expect(server.errors).toEqual([]);
  });
});

describe("chat wire specifics", () => {
  test("reasoning in a reply is ignored", async () => {
    const { model } = await setup({ reasoning: "secret thoughts", text: "Visible." });
    const result = streamText({ model: model("chat"), prompt: "Hi", ...quiet });
    await drain(result);
    expect(await result.text).toBe("Visible.");
    expect(await result.reasoningText).toBeUndefined();
  });
});
