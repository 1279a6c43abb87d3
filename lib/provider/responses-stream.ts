/**
 * Servers other than OpenAI stream a Responses reasoning item's text as `reasoning_text` deltas
 * (LM Studio, vLLM, DeepSeek, ollama) where OpenAI sends `reasoning_summary_text`; the OpenAI client
 * reads only the latter, so that reasoning would be invisible. This fetch wrapper renames those
 * events in the stream (summary part 0 of the same item), so every form becomes a `reasoning` event.
 */
export function withReasoningTextAsSummary(fetchImpl: typeof fetch): typeof fetch {
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await fetchImpl(input, init);
    if (!response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    return new Response(response.body.pipeThrough(renameReasoningText()), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return Object.assign(wrapped, { preconnect: fetchImpl.preconnect }) as typeof fetch;
}

const DELTA = "response.reasoning_text.delta";
const DONE = "response.reasoning_text.done";

/** A line-by-line SSE rewrite; lines that don't name a reasoning_text event pass through unchanged. */
function renameReasoningText(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  const rewrite = (line: string): string | undefined => {
    if (!line.includes("response.reasoning_text.")) return line;
    if (line.startsWith("event:")) return line.includes(DONE) ? undefined : line.replace(DELTA, "response.reasoning_summary_text.delta");
    if (!line.startsWith("data:")) return line;
    try {
      const event = JSON.parse(line.slice(5));
      if (event.type === DONE) return undefined; // the item's own done event closes the part
      if (event.type !== DELTA) return line;
      return `data: ${JSON.stringify({ type: "response.reasoning_summary_text.delta", item_id: event.item_id, output_index: event.output_index, summary_index: 0, delta: event.delta ?? "" })}`;
    } catch {
      return line;
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      const out = lines.map(rewrite).filter((l): l is string => l !== undefined);
      if (out.length > 0 || lines.length > 0) controller.enqueue(encoder.encode(out.map((l) => l + "\n").join("")));
    },
    flush(controller) {
      const last = pending + decoder.decode();
      if (last) {
        const line = rewrite(last);
        if (line !== undefined) controller.enqueue(encoder.encode(line));
      }
    },
  });
}
