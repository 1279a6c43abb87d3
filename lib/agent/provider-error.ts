import { APICallError, RetryError } from "ai";

export type ProviderFailure = {
  /** One line for the user: what the provider said, without a stack trace. */
  message: string;
  status?: number;
  /** Safe to send the same request again (rate limit, server error, dropped connection). */
  retryable: boolean;
  /** The server's own `retry-after` / `retry-after-ms`, when it gave one. */
  retryAfterMs?: number;
};

/** The provider's stream ended without its completion event (dropped connection, proxy timeout). */
export class IncompleteStreamError extends Error {
  constructor() {
    super("the provider's stream ended before the response was complete");
    this.name = "IncompleteStreamError";
  }
}

/** Turns whatever the SDK or fetch threw into a one-line, classified failure. Never throws. */
export function describeProviderError(error: unknown): ProviderFailure {
  if (RetryError.isInstance(error) && error.lastError) return describeProviderError(error.lastError);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = providerMessage(error.responseBody) ?? error.message;
    return {
      message: status ? `provider returned ${status}: ${detail}` : `provider request failed: ${detail}`,
      status,
      retryable: error.isRetryable || status === undefined,
      retryAfterMs: retryAfter(error.responseHeaders),
    };
  }
  if (error instanceof IncompleteStreamError) return { message: error.message, retryable: true };
  const message = error instanceof Error ? error.message : String(error);
  // Connection resets and refused connections surface as plain errors from fetch.
  const network = /ECONNRESET|ECONNREFUSED|socket|network|fetch failed|connection|terminated|closed unexpectedly/i.test(message);
  return { message: network ? `connection to the provider failed: ${message}` : message, retryable: network };
}

function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (parsed.error && typeof parsed.error.message === "string") return parsed.error.message;
    if (typeof parsed.message === "string") return parsed.message;
  } catch {}
  return body.length > 300 ? body.slice(0, 300) + "…" : body;
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers["retry-after"];
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Backoff for attempt n (1-based): the server's hint when given, else base·2^(n-1), capped at a minute. */
export function retryDelayMs(attempt: number, baseMs: number, hintMs?: number): number {
  const delay = hintMs ?? baseMs * 2 ** (attempt - 1);
  return Math.min(delay, 60_000);
}
