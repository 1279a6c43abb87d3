/**
 * The human part of a provider's error body: `error.message` (OpenAI's shape), a string `error`,
 * a Responses event's `response.error.message`, a top-level `message` or `detail`; otherwise the
 * body itself. `undefined` for an empty body. Pure.
 */
export function providerMessage(body: unknown): string | undefined {
  if (typeof body !== "string" || !body) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return errorMessageIn(parsed) ?? body;
}

/** Top-level messages that say only that something failed: the vendor's own reason is shown instead. */
const GENERIC_MESSAGE = /^(provider returned error|upstream (provider )?error|error|unknown error|an error occurred)\.?$/i;

/**
 * The message in an error payload however it is wrapped: `{ error: { message } }`, `{ error: "…" }`,
 * a list of those (`[{ error: … }]`, Google), a message that is an error body as JSON text,
 * `{ response: { error } }` (Responses `response.failed`), the bare `{ message }` of an in-stream
 * error chunk, or `{ detail }` (FastAPI servers). Where the message is generic ("Provider returned
 * error") and the payload carries the upstream's words (OpenRouter's `metadata.raw`, itself often an
 * error body as a JSON string), those words are returned, after `metadata.provider_name`. Undefined
 * when there is no message. Pure; never throws.
 */
export function errorMessageIn(value: unknown, depth = 0): string | undefined {
  if (depth > 4 || !value || typeof value !== "object") return undefined;
  // Google's APIs (Gemini's OpenAI-compatible endpoint among them) wrap the error body in a list.
  if (Array.isArray(value)) return value.length > 0 ? errorMessageIn(value[0], depth + 1) : undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.error === "string" && o.error) return unwrapped(o.error, depth);
  const nested = errorMessageIn(o.error, depth + 1) ?? errorMessageIn((o.response as { error?: unknown } | undefined)?.error, depth + 1);
  if (nested) return nested;
  if (typeof o.message === "string" && o.message) return GENERIC_MESSAGE.test(o.message.trim()) ? (vendorReason(o.metadata, depth) ?? o.message) : unwrapped(o.message, depth);
  if (typeof o.detail === "string" && o.detail) return o.detail;
  return undefined;
}

/**
 * A message that is itself an error body as JSON text (a gateway passing on its upstream's reply,
 * `"message": "{\n  \"error\": {…}}"`): the message inside it; otherwise the message as it is.
 */
function unwrapped(message: string, depth: number): string {
  const text = message.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return message;
  try {
    return errorMessageIn(JSON.parse(text), depth + 1) ?? message;
  } catch {
    return message;
  }
}

/** OpenRouter's `metadata: { raw, provider_name }`: the upstream's own reason, named after it. */
function vendorReason(metadata: unknown, depth: number): string | undefined {
  if (!metadata || typeof metadata !== "object") return undefined;
  const { raw, provider_name: provider } = metadata as { raw?: unknown; provider_name?: unknown };
  let reason: string | undefined;
  if (typeof raw === "string" && raw.trim()) {
    try {
      reason = errorMessageIn(JSON.parse(raw), depth + 1);
    } catch {}
    reason ??= raw.trim();
  } else if (raw && typeof raw === "object") reason = errorMessageIn(raw, depth + 1) ?? JSON.stringify(raw);
  if (!reason) return undefined;
  return typeof provider === "string" && provider ? `${provider}: ${reason}` : reason;
}
