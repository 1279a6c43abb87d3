import { APICallError, JSONParseError, RetryError, TypeValidationError } from "ai";
import { ProviderIdleError } from "./idle-timeout.ts";
import { providerMessage } from "./message.ts";

/** Longest provider message shown; a provider or proxy can send a whole HTML page. */
const MAX_MESSAGE_CHARS = 400;

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
  const failure = classify(error);
  return { ...failure, message: oneLine(failure.message) };
}

function classify(error: unknown): ProviderFailure {
  if (RetryError.isInstance(error) && error.lastError) return classify(error.lastError);
  // A stalled provider, whether the stall was met waiting for headers or for the next chunk.
  const idle = inChain(error, (e): e is ProviderIdleError => e instanceof ProviderIdleError);
  if (idle) return { message: idle.message, retryable: true };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    // 200 means the response had started: reading its body failed (a dropped connection, mostly).
    if (status === 200 && error.cause instanceof Error) {
      return { message: `the connection to the provider broke in the middle of its response (${error.cause.message})`, retryable: true };
    }
    const detail = clippedProviderMessage(error.responseBody) ?? error.message;
    return {
      message: status ? `provider returned ${status}: ${detail}` : `provider request failed: ${detail}`,
      status,
      retryable: error.isRetryable || status === undefined,
      retryAfterMs: retryAfter(error.responseHeaders),
    };
  }
  if (error instanceof IncompleteStreamError) return { message: error.message, retryable: true };
  // Garbage in the event stream: a proxy or a provider bug. Nothing usable was read, so a retry is safe when nothing was shown.
  if (JSONParseError.isInstance(error)) {
    const why = error.cause instanceof Error ? error.cause.message : "not JSON";
    return { message: `the provider's stream had an event that is not valid JSON (${why}): ${clip(error.text, 80)}`, retryable: true };
  }
  if (TypeValidationError.isInstance(error)) {
    const why = error.cause instanceof Error ? error.cause.message : "unexpected shape";
    return { message: `the provider's stream had an event shiro could not read (${why})`, retryable: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  // Only a reply nested thousands of levels deep gets here (arguments the SDK copies recursively).
  if (error instanceof RangeError && /call stack/i.test(message)) {
    return { message: `could not process the model's reply: it is nested too deeply (${message})`, retryable: false };
  }
  // Bun's own idle limit, when shiro's is off (SHIRO_IDLE_TIMEOUT_MS=0 does not reach it) or another fetch is used.
  if (error instanceof Error && error.name === "TimeoutError") return { message: `the request to the provider timed out: ${message}`, retryable: true };
  // Connection resets and refused connections surface as plain errors from fetch.
  const network = /ECONNRESET|ECONNREFUSED|socket|network|fetch failed|connection|terminated|closed unexpectedly/i.test(message);
  return { message: network ? `connection to the provider failed: ${message}` : message, retryable: network };
}

/** The first error in `error`'s cause chain that passes `test`. */
function inChain<T>(error: unknown, test: (e: unknown) => e is T): T | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    if (test(current)) return current;
    seen.add(current);
  }
  return undefined;
}

/** One line, at most MAX_MESSAGE_CHARS: error text from a provider or the SDK can span lines. */
function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, " ").trim(), MAX_MESSAGE_CHARS);
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** The provider's own message, clipped to a readable length. */
function clippedProviderMessage(body: string | undefined): string | undefined {
  const message = providerMessage(body);
  return message && message.length > 300 ? message.slice(0, 300) + "…" : message;
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
