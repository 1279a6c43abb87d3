import type { LanguageModel, ModelMessage } from "ai";
import type { Settings } from "../config/resolve.ts";
import { ShiroError } from "../errors.ts";
import type { Usage } from "../events.ts";
import type { CallOptions } from "../provider/call-options.ts";
import { describeProviderError } from "../provider/provider-error.ts";
import { TELEMETRY_OFF } from "../provider/tracing-channel.ts";
import { keyRedactor } from "./redact-key.ts";

/** A request made outside a turn: no tools, one answer. */
export type GenerateRequest = { prompt?: string; instructions?: string; messages?: ModelMessage[] };

export type GenerateOptions = {
  signal?: AbortSignal;
  /** Where the tokens are booked (the live session), so they count like a turn's. */
  book?: (usage: Usage) => void;
};

/**
 * The one way to ask the model something outside a turn (`/compact`, `/memory`, `shiro memory
 * compact`, `shiro sessions compact`): the same model, retries and key redaction as a turn, and
 * its usage handed to `book`. Resolves with the answer's text; a provider failure is thrown as
 * ShiroError("provider") whose message is one line without the key.
 */
export async function generate(
  target: { model: LanguageModel; settings: Pick<Settings, "maxRetries" | "apiKey">; callOptions?: CallOptions },
  request: GenerateRequest,
  opts: GenerateOptions = {},
): Promise<string> {
  const { generateText } = await import("ai");
  let result;
  try {
    result = await generateText({ ...target.callOptions, model: target.model, ...request, abortSignal: opts.signal, maxRetries: target.settings.maxRetries, telemetry: TELEMETRY_OFF } as Parameters<typeof generateText>[0]);
  } catch (error) {
    throw new ShiroError("provider", keyRedactor(target.settings.apiKey)(describeProviderError(error).message), { cause: error });
  }
  const cached = result.usage.inputTokenDetails?.cacheReadTokens;
  opts.book?.({ inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) });
  return result.text;
}
