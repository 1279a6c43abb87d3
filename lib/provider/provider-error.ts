import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, StreamProviderError, TypeValidationError } from "ai";
import { ProviderIdleError } from "./idle-timeout.ts";
import { errorMessageIn, providerMessage } from "./message.ts";
import { describeInvalidResponseData, describeUnreadableShape } from "./unreadable-reply.ts";

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

/**
 * Turns whatever the SDK or fetch threw, or a stream reported, into a one-line, classified failure.
 * Never throws. Retryable are only failures a second identical request can escape: transport
 * failures (refused or dropped connections, a stream cut or garbled in transit), an idle timeout,
 * and statuses 408, 409, 429 and 5xx, whether over HTTP or as an error inside the stream. A reply
 * that is valid JSON of a shape shiro cannot use is not: it would fail the same way again.
 */
export function describeProviderError(error: unknown): ProviderFailure {
  const failure = classify(error);
  return { ...failure, message: oneLine(failure.message) };
}

/** Longest server's words quoted at the end of a refusal shiro could not get past (serverWords). */
const MAX_WORDS_CHARS = 200;

/**
 * What the server itself said in a refusal, on one line and clipped, to quote at the end of a
 * message shiro words itself (a refusal that persists after its own recovery): the error body's
 * message (`error.message`, a gateway's upstream reason, …), an in-stream error's, or a chat
 * stream's error object's. Undefined when the error carries no words of the server's (a dropped
 * connection, an SDK error). Pure; never throws.
 */
export function serverWords(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); ) {
    seen.add(e);
    let words: string | undefined;
    if (APICallError.isInstance(e)) words = providerMessage(e.responseBody);
    else if (StreamProviderError.isInstance(e)) words = errorMessageIn(e.data);
    else if (!(e instanceof Error)) words = errorMessageIn(e) ?? (typeof (e as { message?: unknown }).message === "string" ? ((e as { message: string }).message) : undefined);
    if (words && words.trim()) return clip(words.replace(/\s+/g, " ").trim(), MAX_WORDS_CHARS);
    e = RetryError.isInstance(e) && e.lastError ? e.lastError : (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The tail of the message for a reply shiro cannot use: why it is not sent again. */
const NOT_RETRIED = "shiro cannot read this reply (not retried: it would fail the same way)";

/** The message for an error that arrived inside a stream (HTTP 200 all along). */
function streamErrorMessage(detail: string): string {
  return `provider reported an error: ${detail}`;
}

/** What to do about a spent quota, and why shiro did not wait and retry. */
const QUOTA_NEXT_STEP = "the account's quota or credit is used up, which waiting does not change (not retried): add credit or raise the limit with the provider, or use another key or provider";

/** Error codes and types servers use for a used-up quota or balance (OpenAI's `insufficient_quota`, and servers copying it). */
const QUOTA_CODES = /^(insufficient_quota|exceeded_current_quota_error|insufficient_balance|billing_hard_limit_reached)$/i;

/** True for an error body whose `code` or `type` says the quota or balance is spent. */
function isQuotaExhausted(body: string | undefined): boolean {
  if (!body) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = (first as { error?: unknown } | null)?.error ?? first;
  if (!error || typeof error !== "object") return false;
  const { code, type } = error as { code?: unknown; type?: unknown };
  return [code, type].some((v) => typeof v === "string" && QUOTA_CODES.test(v));
}

/** True for an error body that is a streamed event (`error`, `response.failed`) the SDK re-threw as an APICallError. */
function isStreamedFrame(body: string | undefined): boolean {
  if (!body || !body.startsWith("{")) return false;
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return type === "error" || type === "response.failed";
  } catch {
    return false;
  }
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
    // The SDK throws an in-stream error that came before any output as an APICallError with a status
    // it derived from the error's code; the server itself answered 200.
    const streamed = isStreamedFrame(error.responseBody);
    const message = streamed ? streamErrorMessage(detail) : status ? `provider returned ${status}: ${detail}` : `provider request failed: ${detail}`;
    // A 429 for a spent quota or balance is not a rate limit: no wait makes it pass.
    if (status === 429 && isQuotaExhausted(error.responseBody)) return { message: `${message.replace(/[.\s]+$/, "")}; ${QUOTA_NEXT_STEP}`, status, retryable: false };
    return {
      message,
      status,
      retryable: error.isRetryable || status === undefined,
      retryAfterMs: retryAfter(error.responseHeaders),
    };
  }
  // An error inside an HTTP 200 stream (a chat chunk with a top-level `error`, Groq's `event: error`,
  // Responses `error` / `response.failed` after output began). The SDK derived its status and
  // retryability from the error's code (429 and 5xx retry); the payload may hold the vendor's reason.
  if (StreamProviderError.isInstance(error)) {
    const detail = clip(errorMessageIn(error.data) ?? error.message, 300);
    return { message: streamErrorMessage(detail), status: error.statusCode, retryable: error.isRetryable };
  }
  if (error instanceof IncompleteStreamError) return { message: error.message, retryable: true };
  // Garbage in the event stream: a proxy or a provider bug. Nothing usable was read, so a retry is safe when nothing was shown.
  if (JSONParseError.isInstance(error)) {
    const why = error.cause instanceof Error ? error.cause.message : "not JSON";
    return { message: `the provider's stream had an event that is not valid JSON (${why}): ${clip(error.text, 80)}`, retryable: true };
  }
  // Valid JSON of a shape the client cannot use: the same request gets the same reply.
  if (TypeValidationError.isInstance(error)) {
    const what = describeUnreadableShape(error.value, (error.cause as { issues?: unknown } | undefined)?.issues);
    return { message: `the server sent ${what ?? `a reply of a shape shiro does not know (${clip(JSON.stringify(error.value) ?? "", 80)})`}; ${NOT_RETRIED}`, retryable: false };
  }
  if (InvalidResponseDataError.isInstance(error)) {
    // The compatible client's word for a stream that stopped before its finish reason: cut in transit.
    if (/ended without a finish reason/i.test(error.message)) return { message: new IncompleteStreamError().message, retryable: true };
    const what = describeInvalidResponseData(error.message);
    return { message: `the server sent ${what ?? `a reply shiro cannot use (${error.message})`}; ${NOT_RETRIED}`, retryable: false };
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
