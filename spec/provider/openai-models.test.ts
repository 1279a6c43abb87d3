// shiro builds the OpenAI client's models from its model classes (lib/provider/openai-models.ts)
// instead of createOpenAI, to skip the client's realtime set-up. What a server receives must not change.
import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { openAIModel } from "../../lib/provider/openai-models.ts";
import { TELEMETRY_OFF } from "../../lib/provider/tracing-channel.ts";

type Seen = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** A fetch that records the request and answers with a server error, so no reply needs faking. */
function recorder(): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fake = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    seen.push({ url: String(input), method: init?.method ?? "GET", headers, body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ error: { message: "recorded", type: "server_error" } }), { status: 500, headers: { "content-type": "application/json" } });
  };
  return { fetch: fake as typeof fetch, seen };
}

const options = { baseURL: "http://127.0.0.1:9/v1/", apiKey: "sk-test-key", name: "openai" };
const tools = { bash: tool({ description: "Run a command.", inputSchema: jsonSchema({ type: "object", properties: { command: { type: "string" } }, required: ["command"] }) }) };

async function requestOf(api: "chat" | "responses", build: "client" | "shiro", stream: boolean): Promise<Seen> {
  const { fetch, seen } = recorder();
  const model = build === "client" ? createOpenAI({ ...options, fetch })[api === "chat" ? "chat" : "responses"]("gpt-5-mini") : openAIModel(api, "gpt-5-mini", { ...options, fetch });
  const call = {
    model,
    instructions: "Be brief.",
    messages: [{ role: "user" as const, content: "hi" }],
    tools,
    maxRetries: 0,
    telemetry: TELEMETRY_OFF,
    providerOptions: { openai: { reasoningEffort: "low" } },
  };
  if (stream) {
    const result = streamText({ ...call, onError: () => {} });
    for await (const _ of result.fullStream);
  } else {
    await generateText(call).catch(() => {});
  }
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe("the OpenAI models shiro builds send what createOpenAI's send", () => {
  for (const api of ["chat", "responses"] as const) {
    for (const stream of [true, false]) {
      test(`${api}, ${stream ? "streamed" : "not streamed"}: same URL, headers and body`, async () => {
        const ours = await requestOf(api, "shiro", stream);
        const theirs = await requestOf(api, "client", stream);
        expect(ours).toEqual(theirs);
        expect(ours.url).toBe(`http://127.0.0.1:9/v1/${api === "chat" ? "chat/completions" : "responses"}`);
        expect(ours.headers.authorization).toBe("Bearer sk-test-key");
      });
    }
  }

  test("they name the same provider, which keys their provider options", () => {
    const { fetch } = recorder();
    for (const api of ["chat", "responses"] as const) {
      const ours = openAIModel(api, "gpt-5-mini", { ...options, name: "azure", fetch });
      const theirs = createOpenAI({ ...options, name: "azure", fetch })[api === "chat" ? "chat" : "responses"]("gpt-5-mini");
      expect(ours.provider).toBe(theirs.provider);
      expect(ours.modelId).toBe(theirs.modelId);
    }
  });
});
