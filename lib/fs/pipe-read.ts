import type { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/**
 * Reading a child's output (a pipe) without a new buffer for every read.
 *
 * Bun's web ReadableStream for a pipe is a byte stream whose every read allocates a fresh
 * 256 KB buffer, however little arrives: a command that prints one line costs three of them
 * (its output, then the end of stdout and of stderr). That was most of what a step of the agent
 * loop allocated, and allocation is what sets off the garbage collector (a collection per 8 MB
 * or so). Node's Readable over the same pipe (Bun hands `Readable.fromWeb` the native pipe)
 * reads into one buffer and keeps its unused rest for the next read. The chunks are taken as
 * `data` events: Node's async iterator over a Readable costs about a millisecond to set up the
 * first time, on the way to the first command. See docs/performance.md.
 *
 * Streams that are not pipes (a child that never started, a test's stream) work the same way.
 */

/** Reading in progress. */
export type PipeRead = {
  /** Resolves once the stream has ended or been cancelled; rejects if it failed. */
  readonly ended: Promise<void>;
  /** Stops reading and lets go of the pipe (a background process may still hold its other end). */
  cancel(): void;
};

/** node:stream, loaded by the first read (the login shell's, once the first request is out): 1 ms less before it. */
let streams: typeof import("node:stream") | undefined;

function nodeReadable(stream: ReadableStream<Uint8Array>): Readable {
  streams ??= require("node:stream") as typeof import("node:stream");
  return streams.Readable.fromWeb(stream as unknown as WebReadableStream<Uint8Array>);
}

/** Hands each chunk to `onChunk` as it arrives. */
export function readPipe(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => void): PipeRead {
  const readable = nodeReadable(stream);
  const ended = new Promise<void>((done, fail) => {
    readable.on("data", onChunk);
    readable.once("end", done);
    readable.once("error", fail);
    readable.once("close", done);
  });
  return { ended, cancel: () => void readable.destroy() };
}

/** The chunks as they arrive, for a loop that may stop early (leaving it lets go of the pipe). */
export function pipeChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  return nodeReadable(stream) as AsyncIterable<Uint8Array>;
}

/**
 * Each chunk decoded as UTF-8 (a character split between two chunks is decoded once, whole) and
 * handed to `onText`. `ended` never rejects: a failing stream ends with what came.
 */
export function readPipeText(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): PipeRead {
  const decoder = new TextDecoder();
  const read = readPipe(stream, (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text) onText(text);
  });
  const ended = read.ended
    .catch(() => {})
    .then(() => {
      const rest = decoder.decode();
      if (rest) onText(rest);
    });
  return { ended, cancel: read.cancel };
}

/** Everything the stream gives, decoded as UTF-8 once it has ended. Rejects if the stream fails. */
export async function pipeText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  await readPipe(stream, (chunk) => chunks.push(chunk)).ended;
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}
