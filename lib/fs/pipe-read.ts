import type { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/**
 * A child's pipe (Bun.spawn's stdout or stderr) as a stream that does not take a new buffer for
 * every read.
 *
 * Bun's web ReadableStream for a pipe is a byte stream whose every read allocates a fresh 256 KB
 * buffer, however little arrives: a command that prints one line costs three of them (its line,
 * then the end of stdout and of stderr). That was most of what a step of the agent loop
 * allocated, and allocation is what sets off the garbage collector (a collection per 8 MB or so).
 * Node's Readable over the same pipe (Bun hands `Readable.fromWeb` the native pipe) reads into
 * one buffer and keeps its unused rest for the next read. So the pipe is read that way, and its
 * chunks are handed on through an ordinary web stream, which costs nothing per read: whoever
 * reads the child's output sees a ReadableStream as before. See docs/performance.md.
 *
 * Only for pipes that Bun made: a stream built in JavaScript (the sandbox's children, whose
 * output arrives as messages) has no such cost and is read as it is.
 */
export function pipeStream(pipe: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let readable: Readable | undefined;
  let over = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        readable = nodeReadable(pipe);
        readable.on("data", (chunk: Uint8Array) => {
          if (over) return;
          controller.enqueue(chunk);
          // Nobody is reading: stop taking from the pipe, so a chatty child waits as it would.
          if ((controller.desiredSize ?? 1) <= 0) readable?.pause();
        });
        readable.once("end", () => {
          if (over) return;
          over = true;
          controller.close();
        });
        readable.once("error", (error) => {
          if (over) return;
          over = true;
          controller.error(error);
        });
      },
      pull() {
        readable?.resume();
      },
      cancel() {
        over = true;
        readable?.destroy();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

/** node:stream, loaded by the first pipe (the login shell's, once the first request is out): 1 ms less before it. */
let streams: typeof import("node:stream") | undefined;

function nodeReadable(stream: ReadableStream<Uint8Array>): Readable {
  streams ??= require("node:stream") as typeof import("node:stream");
  return streams.Readable.fromWeb(stream as unknown as WebReadableStream<Uint8Array>);
}
