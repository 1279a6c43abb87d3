import { writeSync } from "node:fs";
import { EXIT_CODES } from "../lib/errors.ts";

/**
 * stdout or stderr for a headless run, written with plain blocking writes to the file
 * descriptor, as Node writes to files, terminals and (on Linux) pipes: nothing is left to flush at
 * exit, and no stream machinery is loaded for a run's few lines. Like any program writing to a
 * pipe, shiro waits while the reader does not read and the pipe is full. A descriptor that is
 * non-blocking (a parent may set that on a shared pipe) and full hands the rest, in order, to
 * Node's stream, which waits for room.
 *
 * A write never throws. When the descriptor stops taking output, writing stops and `onClosed`
 * runs once, with "gone" when the reader went away (`shiro -p … | head`) and the error's text
 * otherwise (a full disk): the run is then wound down, never a stack trace.
 */
export type Output = { write(text: string): void; readonly closed: boolean };

export function createOutput(fd: 1 | 2, onClosed: (why: "gone" | string) => void): Output {
  let closed = false;
  let stream: NodeJS.WriteStream | undefined;
  const close = (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    onClosed(error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED" ? "gone" : error.message);
  };
  const toStream = (rest: Uint8Array) => {
    if (!stream) {
      stream = fd === 1 ? process.stdout : process.stderr;
      stream.on("error", close);
    }
    stream.write(rest);
  };
  return {
    get closed() {
      return closed;
    },
    write(text) {
      if (closed || text === "") return;
      let rest: Buffer | undefined;
      try {
        if (stream) return toStream(Buffer.from(text));
        // Most writes go out whole; only a short write needs the bytes to go on from.
        const written = writeSync(fd, text);
        if (written < Buffer.byteLength(text)) {
          rest = Buffer.from(text).subarray(written);
          while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") toStream(rest ?? Buffer.from(text));
        else close(error as NodeJS.ErrnoException);
      }
    },
  };
}

/**
 * Signals that end a headless run: the first SIGINT/SIGTERM/SIGHUP aborts the turn so it winds
 * down and the session is saved (`abort` is told which); a second one leaves at once (after
 * `onForce`). Returns `stop`.
 */
export function onTerminationSignals(abort: (signal: NodeJS.Signals) => void, onForce: () => void): () => void {
  let received = 0;
  const handler = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) return abort(signal);
    onForce();
    process.exit(EXIT_CODES.interrupted);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
