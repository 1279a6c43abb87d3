// describeProviderError over the errors the real clients produce: each reply is served by the fake and
// read by @ai-sdk/openai or @ai-sdk/openai-compatible, so the error classified is the one shiro meets.
// What is checked per class: the one line the user reads, and whether the turn may send the request again.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, streamText } from "ai";
import { describeProviderError } from "../../lib/provider/provider-error.ts";
import { errorMessageIn, providerMessage } from "../../lib/provider/message.ts";
import { ProviderIdleError } from "../../lib/provider/idle-timeout.ts";
import type { Reply, VendorMode } from "../support/fake-openai.ts";
import { describeWithShared } from "../support/shared-fixtures.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const serve = useFakeServer();

type Client = "openai" | "compatible";

/** The first error one streamed request produces, with this client on this wire. */
async function firstError(reply: Reply, opts: { client?: Client; api?: "chat" | "responses"; vendor?: VendorMode } = {}): Promise<unknown> {
  const server = await serve.with({ vendor: opts.vendor })(reply);
  const api = opts.api ?? "chat";
  const model =
    (opts.client ?? "compatible") === "compatible"
      ? createOpenAICompatible({ name: "test", baseURL: server.url, apiKey: "k" }).chatModel("m")
      : api === "chat"
        ? createOpenAI({ baseURL: server.url, apiKey: "k" }).chat("m")
        : createOpenAI({ baseURL: server.url, apiKey: "k" }).responses("m");
  const result = streamText({ model, prompt: "hi", maxRetries: 0, onError: () => {} });
  const errors: unknown[] = [];
  try {
    for await (const part of result.stream) if (part.type === "error") errors.push(part.error);
  } catch (error) {
    errors.push(error);
  }
  expect(errors.length).toBeGreaterThan(0);
  return errors[0];
}

const chunk = (body: object) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", ...body })}\n\n`;
const toolDelta = (call: object) => chunk({ choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: "tool_calls" }] }) + "data: [DONE]\n\n";

describe("an error inside a 200 stream", () => {
  test("OpenRouter's generic top-level error shows the upstream's reason, and a 503 may be retried", async () => {
    const error = await firstError({ streamError: { message: "Provider returned error", code: 503, raw: '{"error":{"message":"The model is overloaded."}}' } }, { vendor: "openrouter" });
    expect(describeProviderError(error)).toMatchObject({ message: "provider reported an error: Google AI Studio: The model is overloaded.", status: 503, retryable: true });
  });

  test("a 400 in the stream is not retried", async () => {
    const error = await firstError({ text: "Hel", streamError: { message: "Token limit reached", code: 400 } }, { vendor: "openrouter" });
    expect(describeProviderError(error)).toMatchObject({ message: "provider reported an error: Token limit reached", retryable: false });
  });

  test("Groq's event: error", async () => {
    const error = await firstError({ streamError: { message: "tool call validation failed: attempted to call tool 'x'", type: "invalid_request_error", code: "tool_use_failed" } }, { vendor: "groq" });
    expect(describeProviderError(error)).toMatchObject({ message: "provider reported an error: tool call validation failed: attempted to call tool 'x'", retryable: false });
  });

  for (const form of ["both", "error", "failed"] as const)
    test(`Responses ${form === "both" ? "error then response.failed" : form === "error" ? "error event alone" : "response.failed alone"}, before and after output`, async () => {
      for (const text of [undefined, "partial"]) {
        const error = await firstError({ text, streamError: { message: "The server had an error processing your request.", code: "server_error", form } }, { client: "openai", api: "responses" });
        const failure = describeProviderError(error);
        expect(failure.message).toBe("provider reported an error: The server had an error processing your request.");
        expect(failure.retryable).toBe(true); // server_error: a 500 by its code
      }
    });
});

describe("a reply of a shape shiro cannot use is named in one line and not retried", () => {
  const cases: [string, string, Client, string][] = [
    ["a tool call without index (Mistral, OpenAI client)", toolDelta({ id: "gSIMJiOkT", function: { name: "weather", arguments: "{}" } }), "openai", 'the server sent a tool call without "index"'],
    ["an index that is a string", toolDelta({ index: "0", id: "a", type: "function", function: { name: "w", arguments: "{}" } }), "compatible", 'the server sent a tool call whose "index" is "0", not a number'],
    ["a tool call without a name", toolDelta({ index: 0, id: "a", type: "function", function: { arguments: "{}" } }), "compatible", 'the server sent a tool call without "function.name"'],
    ["content that is not text", chunk({ choices: [{ index: 0, delta: { content: 5 }, finish_reason: null }] }), "compatible", 'the server sent a delta whose "content" is 5, not a string'],
    ["a chunk without choices", chunk({ note: "x" }) + "data: [DONE]\n\n", "openai", 'the server sent a chunk without "choices"'],
    ["usage counted in strings", chunk({ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }], usage: { prompt_tokens: "5", completion_tokens: 1 } }), "compatible", 'the server sent token usage whose "prompt_tokens" is "5", not a number'],
  ];
  for (const [name, raw, client, start] of cases)
    test(name, async () => {
      const failure = describeProviderError(await firstError({ raw }, { client }));
      expect(failure.message).toStartWith(start + "; ");
      expect(failure.message).not.toMatch(/invalid_union|invalid_type|\[ \{/);
      expect(failure.retryable).toBe(false);
    });

  test("a Responses function_call without call_id", async () => {
    const created = `data: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", created_at: 1, status: "in_progress", model: "m", output: [], usage: null } })}\n\n`;
    const added = `data: ${JSON.stringify({ type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { type: "function_call", id: "fc_1", name: "w", arguments: "", status: "in_progress" } })}\n\n`;
    const failure = describeProviderError(await firstError({ raw: created + added }, { client: "openai", api: "responses" }));
    expect(failure).toMatchObject({ retryable: false });
    expect(failure.message).toStartWith('the server sent a tool call without "call_id"; ');
  });
});

describe("what a retry can fix", () => {
  // The OpenAI client reports a cut stream as finish reason "error", which lib/agent/step.ts turns into
  // IncompleteStreamError; the compatible client reports it as an error of its own.
  test("a stream cut in transit (the compatible client's no finish reason)", async () => {
    const failure = describeProviderError(await firstError({ fault: "truncate" }, { client: "compatible" }));
    expect(failure).toEqual({ message: "the provider's stream ended before the response was complete", retryable: true });
  });

  test("an event garbled in transit (not JSON)", async () => {
    const failure = describeProviderError(await firstError({ fault: "malformed" }));
    expect(failure.retryable).toBe(true);
    expect(failure.message).toStartWith("the provider's stream had an event that is not valid JSON");
  });

  test("by HTTP status: 408, 409, 429 and 5xx only", async () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504]) {
      const failure = describeProviderError(await firstError({ status }));
      expect({ status, retryable: failure.retryable }).toEqual({ status, retryable: [408, 409, 429].includes(status) || status >= 500 });
      expect(failure.message).toStartWith(`provider returned ${status}: `);
    }
  });

  test("an idle provider, and a refused connection", () => {
    expect(describeProviderError(new ProviderIdleError(1000)).retryable).toBe(true);
    const refused = new APICallError({ message: "Cannot connect to API: ECONNREFUSED", url: "http://127.0.0.1:1/v1", requestBodyValues: {}, isRetryable: true });
    expect(describeProviderError(refused).retryable).toBe(true);
  });
});

describe("the provider's message", () => {
  test("an HTTP body with OpenRouter's generic message shows metadata.raw, parsed when it is an error body", () => {
    const body = (raw: unknown) => JSON.stringify({ error: { message: "Provider returned error", code: 400, metadata: { raw, provider_name: "Google AI Studio" } } });
    expect(providerMessage(body('{"error":{"code":400,"message":"Function call is missing a thought_signature.","status":"INVALID_ARGUMENT"}}'))).toBe("Google AI Studio: Function call is missing a thought_signature.");
    expect(providerMessage(body("Gemini models require OpenRouter reasoning details to be preserved in each request."))).toBe(
      "Google AI Studio: Gemini models require OpenRouter reasoning details to be preserved in each request.",
    );
    // Without raw, or with a specific message, the message stands.
    expect(providerMessage(JSON.stringify({ error: { message: "Provider returned error", code: 502 } }))).toBe("Provider returned error");
    expect(providerMessage(JSON.stringify({ error: { message: "Rate limit exceeded: free-models-per-day", metadata: { raw: "x" } } }))).toBe("Rate limit exceeded: free-models-per-day");
  });

  test("every wrapping servers use", () => {
    expect(errorMessageIn({ type: "response.failed", response: { error: { code: "server_error", message: "boom" } } })).toBe("boom");
    expect(errorMessageIn({ type: "error", sequence_number: 2, error: { type: "invalid_request_error", message: "nested" } })).toBe("nested");
    expect(errorMessageIn({ type: "error", code: "x", message: "flat" })).toBe("flat");
    expect(errorMessageIn({ error: "model 'm' not found" })).toBe("model 'm' not found");
    expect(errorMessageIn({ detail: "Not Found" })).toBe("Not Found");
    expect(errorMessageIn({ nothing: 1 })).toBeUndefined();
    expect(providerMessage("<html>bad gateway</html>")).toBe("<html>bad gateway</html>");
  });
});

describeWithShared("fixtures/real-streams", "recorded vendor error bodies", (dir) => {
  const bodies = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /-(\d{3})\.json$/.test(f));
  test("there are some", () => expect(bodies.length).toBeGreaterThan(0));
  for (const rel of bodies)
    test(`${rel}: the server's message, one line, retried only for 408/409/429/5xx`, async () => {
      const status = Number(/-(\d{3})\.json$/.exec(rel)![1]);
      const raw = readFileSync(join(dir, rel), "utf8");
      const failure = describeProviderError(await firstError({ raw, status, contentType: "application/json" }));
      const message = (JSON.parse(raw).error?.message ?? "") as string;
      expect(failure.message).toContain(message.replace(/\s+/g, " ").trim().slice(0, 120));
      expect(failure.message).not.toContain("\n");
      expect(failure.retryable).toBe([408, 409, 429].includes(status) || status >= 500);
    });
});
