import { streamLines } from "../fs/stream-lines.ts";

/**
 * Splits a byte stream into lines and hands each parsed object to `onMessage` (the messages of
 * protocol.ts); ends when the stream does. Apart from protocol.ts because the entry point imports
 * that file for RUNNER_ARG, and this one brings the pipe reader (node:stream) with it.
 */
export async function readMessages<T>(stream: ReadableStream<Uint8Array>, onMessage: (message: T) => void): Promise<void> {
  for await (const line of streamLines(stream)) {
    if (!line) continue;
    let message: T;
    try {
      message = JSON.parse(line) as T;
    } catch {
      continue;
    }
    onMessage(message);
  }
}
