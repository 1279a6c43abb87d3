import { errorMessageIn } from "./message.ts";

/**
 * A Chat Completions chunk can carry a top-level `error` beside ordinary `choices` (OpenRouter
 * reports an upstream failure that way, HTTP 200 all along). The OpenAI client reads such a chunk as
 * an ordinary one and drops the `error`, so the turn would end as if the answer had simply stopped;
 * and it keeps only the error's `message`, so OpenRouter's `metadata.raw` would be lost. This fetch
 * wrapper rewrites each error chunk to the error-only form (`{ error, usage }`), which the client
 * reports as an error, with the vendor's own reason as its message (lib/provider/message.ts).
 * Chunks without a top-level `error` pass through unchanged.
 */
export function withErrorChunksAsErrors(fetchImpl: typeof fetch): typeof fetch {
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await fetchImpl(input, init);
    if (!response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    return new Response(response.body.pipeThrough(rewriteLines(errorOnly)), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return Object.assign(wrapped, { preconnect: fetchImpl.preconnect }) as typeof fetch;
}

/** `data: {…, error}` → `data: {error, usage}`, the message the vendor's reason; any other line as it was. */
function errorOnly(line: string): string {
  if (!line.startsWith("data:") || !line.includes('"error"')) return line;
  try {
    const chunk = JSON.parse(line.slice(5)) as { error?: unknown; usage?: unknown };
    if (!chunk || typeof chunk !== "object" || !chunk.error || typeof chunk.error !== "object") return line;
    const error = { ...chunk.error, message: errorMessageIn({ error: chunk.error }) ?? (chunk.error as { message?: unknown }).message };
    return `data: ${JSON.stringify({ error, ...(chunk.usage != null ? { usage: chunk.usage } : {}) })}`;
  } catch {
    return line;
  }
}

/**
 * A line-by-line rewrite of a text stream; a line split across chunks is rewritten whole. Only a
 * line holding `"error"` can change, so whole lines without it go through as the bytes they came
 * in (no decoding and encoding again); the last, unfinished line of a chunk waits for the next.
 */
export function rewriteLines(rewrite: (line: string) => string): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held: Uint8Array = new Uint8Array(0);
  return new TransformStream({
    transform(chunk, controller) {
      const bytes = held.length === 0 ? chunk : concat(held, chunk);
      const end = bytes.lastIndexOf(NEWLINE) + 1; // past the last whole line
      held = bytes.slice(end);
      if (end === 0) return;
      const whole = bytes.subarray(0, end);
      if (Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).indexOf(ERROR_KEY) < 0) return controller.enqueue(whole);
      const lines = decoder.decode(whole).split("\n");
      lines.pop(); // the empty text after the last newline
      controller.enqueue(encoder.encode(lines.map((l) => rewrite(l) + "\n").join("")));
    },
    flush(controller) {
      const last = decoder.decode(held);
      if (last) controller.enqueue(encoder.encode(rewrite(last)));
    },
  });
}

const NEWLINE = 0x0a;
const ERROR_KEY = Buffer.from('"error"');

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
