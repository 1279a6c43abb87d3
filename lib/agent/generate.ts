import type { LanguageModel, ModelMessage } from "ai";
import type { Settings } from "../config/resolve.ts";
import { ShiroError } from "../errors.ts";
import type { Usage } from "../events.ts";
import type { CallOptions } from "../provider/call-options.ts";
import { describeProviderError, retryDelayMs } from "../provider/provider-error.ts";
import { TELEMETRY_OFF } from "../provider/tracing-channel.ts";
import { keyRedactor } from "./redact-key.ts";
import { retryNotice, waitToRetry } from "./retry.ts";

/** Why a request outside a turn ended when the user stopped it. */
export const STOPPED = "stopped before the model answered";

/** A request made outside a turn: no tools, one answer. */
export type GenerateRequest = { prompt?: string; instructions?: string; messages?: ModelMessage[] };

export type GenerateOptions = {
  signal?: AbortSignal;
  /** Where the tokens are booked (the live session), so they count like a turn's. */
  book?: (usage: Usage) => void;
  /** Told before each wait to retry, in the words a turn uses (`…; retrying in 2.0s (attempt 2 of 3)`). */
  onRetry?: (notice: string) => void;
};

/**
 * The one way to ask the model something outside a turn (`/compact`, `/memory`, `shiro memory
 * compact`, `shiro sessions compact`): the same model, retries and key redaction as a turn, and
 * its usage handed to `book`. A failure that may pass is tried again as a turn does it (the same
 * waits, the server's Retry-After, `onRetry` told each time; the signal stops a wait). Resolves
 * with the answer's text; a provider failure is thrown as ShiroError("provider") whose message is
 * one line without the key.
 */
export async function generate(
  target: { model: LanguageModel; settings: Pick<Settings, "maxRetries" | "retryBaseMs" | "apiKey">; callOptions?: CallOptions },
  request: GenerateRequest,
  opts: GenerateOptions = {},
): Promise<string> {
  const { generateText } = await import("ai");
  const { maxRetries, retryBaseMs, apiKey } = target.settings;
  const redact = keyRedactor(apiKey);
  let result;
  for (let attempt = 1; ; attempt++) {
    try {
      // The SDK's own retries are off: it would wait without a word, and not as long as a turn does.
      result = await generateText({ ...target.callOptions, model: target.model, ...request, abortSignal: opts.signal, maxRetries: 0, telemetry: TELEMETRY_OFF } as Parameters<typeof generateText>[0]);
      break;
    } catch (error) {
      const failure = describeProviderError(error);
      if (failure.retryable && attempt <= maxRetries && !opts.signal?.aborted) {
        const delay = retryDelayMs(attempt, retryBaseMs, failure.retryAfterMs);
        opts.onRetry?.(redact(retryNotice(failure.message, delay, attempt, maxRetries)));
        if (await waitToRetry(delay, opts.signal)) continue;
      }
      // Stopped by the user (esc) during the request or the wait before a retry: said as such.
      if (opts.signal?.aborted) throw new ShiroError("provider", STOPPED, { cause: error });
      throw new ShiroError("provider", redact(failure.message), { cause: error });
    }
  }
  const cached = result.usage.inputTokenDetails?.cacheReadTokens;
  opts.book?.({ inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) });
  return result.text;
}
