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

/** A line-by-line rewrite of a text stream; a line split across chunks is rewritten whole. */
function rewriteLines(rewrite: (line: string) => string): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.map((l) => rewrite(l) + "\n").join("")));
    },
    flush(controller) {
      const last = pending + decoder.decode();
      if (last) controller.enqueue(encoder.encode(rewrite(last)));
    },
  });
}
