import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { APICallError, RetryError, streamText } from "ai";
import { contextOverflow } from "../../lib/provider/context-overflow.ts";
import { createModel } from "../../lib/provider/model.ts";
import type { Settings } from "../../lib/config/resolve.ts";
import type { OverflowStyle } from "../support/fake-openai.ts";
import { describeWithShared } from "../support/shared-fixtures.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

/** An APICallError as the SDK builds it from an HTTP error (or an in-stream error event, as a 400). */
const apiError = (responseBody: string, statusCode = 400) =>
  new APICallError({ message: "Bad Request", url: "http://x/v1/responses", requestBodyValues: {}, statusCode, responseBody, isRetryable: false });

const body = (error: Record<string, unknown>) => JSON.stringify({ error });

describeWithShared("fixtures", "context refusals recorded from real servers", (dir) => {
  test("OpenAI Chat Completions 400: the window and the server's count of the messages", () => {
    const text = readFileSync(join(dir, "openai/errors/400-context-length-exceeded.json"), "utf8");
    expect(contextOverflow(apiError(text))).toEqual({ limit: 4097, inputTokens: 3120 });
  });

  test("OpenAI Responses, the error event inside a 200 stream (the SDK's 400): an overflow that names no window", () => {
    const text = readFileSync(join(dir, "openai/errors/200-stream-error-context-length-exceeded.json"), "utf8");
    expect(contextOverflow(apiError(text))).toEqual({});
  });

  test("vLLM 400, output asked for does not fit beside the prompt: the window and the input count", () => {
    const text = readFileSync(join(dir, "real-streams/vllm/qwen2.5-7b-context-length-400.json"), "utf8");
    expect(contextOverflow(apiError(text))).toEqual({ limit: 4096, inputTokens: 2778 });
  });
});

describe("contextOverflow: other wordings", () => {
  test("llama.cpp: read from n_ctx and n_prompt_tokens", () => {
    const error = apiError(body({ code: 400, message: "request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 9000, n_ctx: 8192 }));
    expect(contextOverflow(error)).toEqual({ limit: 8192, inputTokens: 9000 });
  });

  test("vLLM, the prompt alone too long", () => {
    const message = "This model's maximum context length is 8192 tokens. However, you requested 0 output tokens and your prompt contains at least 9001 input tokens, for a total of at least 9001 tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=9001)";
    expect(contextOverflow(apiError(body({ message, type: "BadRequestError", param: "input_tokens", code: 400 })))).toEqual({ limit: 8192, inputTokens: 9001 });
  });

  test("OpenRouter, Mistral, newer OpenAI models, an Anthropic-style gateway", () => {
    const cases: [string, { limit?: number; inputTokens?: number }][] = [
      ["This endpoint's maximum context length is 32768 tokens. However, you requested about 40000 tokens (39000 of text input, 1000 in the output).", { limit: 32768, inputTokens: 39000 }],
      ["Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", { limit: 32768, inputTokens: 40000 }],
      ["Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 477469 tokens. Please reduce the length of the messages.", { limit: 272000, inputTokens: 477469 }],
      ["prompt is too long: 210000 tokens > 200000 maximum", { limit: 200000, inputTokens: 210000 }],
    ];
    for (const [message, expected] of cases) expect(contextOverflow(apiError(body({ message })))).toEqual(expected);
  });

  test("Groq names no limit: recognised by its code", () => {
    const error = apiError(body({ message: "Please reduce the length of the messages or completion.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" }));
    expect(contextOverflow(error)).toEqual({});
  });

  test("a gateway that blanked the message is still recognised by the code", () => {
    expect(contextOverflow(apiError(body({ message: "", code: "context_length_exceeded" })))).toEqual({});
  });

  test("inside a RetryError, and as a plain error object from a 200 chat stream", () => {
    const inner = apiError(body({ message: "This model's maximum context length is 4097 tokens. However, your messages resulted in 5000 tokens." }));
    const retry = new RetryError({ message: "failed", reason: "maxRetriesExceeded", errors: [inner] });
    expect(contextOverflow(retry)).toEqual({ limit: 4097, inputTokens: 5000 });
    expect(contextOverflow({ message: "This model's maximum context length is 4097 tokens.", type: "invalid_request_error", code: "context_length_exceeded" })).toEqual({ limit: 4097 });
  });

  test("other errors are not overflows: rate limits, forgotten items, missing reasoning, a 500 that mentions context", () => {
    expect(contextOverflow(apiError(body({ message: "Rate limit reached for gpt-5 on tokens per min (TPM): Limit 200000", code: "rate_limit_exceeded" }), 429))).toBeUndefined();
    expect(contextOverflow(apiError(body({ message: "Item with id 'msg_1' not found.", code: null }), 404))).toBeUndefined();
    expect(contextOverflow(apiError(body({ message: "Item 'msg_1' of type 'message' was provided without its required 'reasoning' item: 'rs_1'.", code: null })))).toBeUndefined();
    expect(contextOverflow(apiError(body({ message: "This model's maximum context length is 4097 tokens." }), 500))).toBeUndefined();
    expect(contextOverflow(new Error("fetch failed"))).toBeUndefined();
    expect(contextOverflow(undefined)).toBeUndefined();
  });
});

describe("contextOverflow reads what the AI SDK makes of each vendor's refusal (fake server, both wires, both clients)", () => {
  const serve = useFakeServer();
  const expected: Record<OverflowStyle, { limit?: number; counted: boolean }> = {
    openai: { limit: 1000, counted: true },
    vllm: { limit: 1000, counted: true },
    llamacpp: { limit: 1000, counted: true },
    openrouter: { limit: 1000, counted: true },
    groq: { counted: false },
  };
  for (const style of Object.keys(expected) as OverflowStyle[]) {
    for (const api of ["responses", "chat"] as const) {
      for (const client of ["openai", "compatible"] as const) {
        test(`${style} wording, ${api} wire, ${client} client`, async () => {
          const s = await serve.with({ vendor: "stateless", overflow: style, models: { m: { contextWindow: 1000 } } })();
          const settings = { provider: "openai", model: "m", baseURL: s.url, apiKey: "k", api, client, store: false, idleTimeoutMs: 0 } as Settings;
          const result = streamText({ model: await createModel(settings), messages: [{ role: "user", content: "x".repeat(8000) }], maxRetries: 0, onError: () => {} });
          let error: unknown;
          for await (const part of result.stream) if (part.type === "error") error ??= part.error;
          const found = contextOverflow(error);
          // OpenAI's Responses wording (in a 200 stream) names no window; its Chat wording does.
          const want = style === "openai" && api === "responses" ? { counted: false } : expected[style];
          expect(found).toBeDefined();
          expect(found!.limit).toBe(want.limit);
          expect(found!.inputTokens !== undefined).toBe(want.counted);
          expect(s.overflows).toHaveLength(1);
        });
      }
    }
  }
});

describe("contextOverflow: a refusal inside a 200 chat stream", () => {
  const serve = useFakeServer();
  for (const client of ["openai", "compatible"] as const) {
    test(`${client} client`, async () => {
      const message = "This model's maximum context length is 4097 tokens. However, your messages resulted in 5000 tokens. Please reduce the length of the messages.";
      const s = await serve({ streamError: { message, code: "context_length_exceeded", type: "invalid_request_error" } });
      const settings = { provider: "openai", model: "m", baseURL: s.url, apiKey: "k", api: "chat", client, store: false, idleTimeoutMs: 0 } as Settings;
      const result = streamText({ model: await createModel(settings), messages: [{ role: "user", content: "hi" }], maxRetries: 0, onError: () => {} });
      let error: unknown;
      for await (const part of result.stream) if (part.type === "error") error ??= part.error;
      expect(contextOverflow(error)).toEqual({ limit: 4097, inputTokens: 5000 });
    });
  }
});
