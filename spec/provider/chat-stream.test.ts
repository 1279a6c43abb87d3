import { expect, test } from "bun:test";
import { rewriteLines, withErrorChunksAsErrors } from "../../lib/provider/chat-stream.ts";

const encoder = new TextEncoder();
/** The text a stream of `chunks` becomes through `transform`. */
async function through(transform: TransformStream<Uint8Array, Uint8Array>, chunks: (string | Uint8Array)[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(source.pipeThrough(transform)).text();
}

test("lines without an error pass unchanged, however the chunks cut them (a character split in two included)", async () => {
  const text = 'data: {"choices":[{"delta":{"content":"héllo ✓"}}]}\n\ndata: [DONE]\n';
  const bytes = encoder.encode(text);
  const cuts = [0, 9, 30, 31, 32, bytes.length - 3, bytes.length];
  const chunks = cuts.slice(1).map((end, i) => bytes.slice(cuts[i], end));
  expect(await through(rewriteLines((line) => `[${line}]`), chunks)).toBe(text);
});

test("a line holding an error is rewritten whole, even when a chunk boundary cuts through the key", async () => {
  const upper = (line: string) => (line.includes('"error"') ? line.toUpperCase() : line);
  const out = await through(rewriteLines(upper), ['data: {"choices":[]}\ndata: {"er', 'ror":{"message":"upstream"}}\n', "data: [DONE]"]);
  expect(out).toBe('data: {"choices":[]}\nDATA: {"ERROR":{"MESSAGE":"UPSTREAM"}}\ndata: [DONE]');
});

test("an OpenRouter error chunk beside choices becomes the error-only form, with the vendor's reason", async () => {
  const stream = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[],"error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream overloaded"}}}\n\n';
  const fetched = withErrorChunksAsErrors((async () => new Response(stream, { headers: { "content-type": "text/event-stream" } })) as unknown as typeof fetch);
  const text = await (await fetched("http://127.0.0.1/")).text();
  expect(text).toStartWith('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n');
  const errorLine = text.split("\n").find((line) => line.includes('"error"'))!;
  const chunk = JSON.parse(errorLine.slice(5));
  expect(Object.keys(chunk)).toEqual(["error"]);
  expect(chunk.error.message).toContain("upstream overloaded");
});
