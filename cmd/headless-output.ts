import { writeSync } from "node:fs";

/**
 * stdout or stderr for a headless run, written with plain blocking writes to the file
 * descriptor, as Node writes to files, terminals and (on Linux) pipes: nothing is left to flush at
 * exit, and no stream machinery is loaded for a run's few lines. A descriptor that is
 * non-blocking (a parent may set that on a shared pipe) and full hands the rest, in order, to
 * Node's stream, which waits for room. When the reader goes away (`shiro -p … | head`), writing
 * stops quietly and `onClosed` runs once (the run is then wound down): never a stack trace.
 */
export type Output = { write(text: string): void; readonly closed: boolean };

export function createOutput(fd: 1 | 2, onClosed: () => void): Output {
  let closed = false;
  let stream: NodeJS.WriteStream | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    onClosed();
  };
  const toStream = (rest: Uint8Array) => {
    if (!stream) {
      stream = fd === 1 ? process.stdout : process.stderr;
      stream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") close();
      });
    }
    stream.write(rest);
  };
  return {
    get closed() {
      return closed;
    },
    write(text) {
      if (closed || text === "") return;
      if (stream) return toStream(Buffer.from(text));
      let rest: Buffer | undefined;
      try {
        // Most writes go out whole; only a short write needs the bytes to go on from.
        const written = writeSync(fd, text);
        if (written < Buffer.byteLength(text)) {
          rest = Buffer.from(text).subarray(written);
          while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EPIPE") close();
        else if (code === "EAGAIN") toStream(rest ?? Buffer.from(text));
        else throw error;
      }
    },
  };
}

/**
 * Signals that end a headless run: the first SIGINT/SIGTERM/SIGHUP aborts the turn so it winds
 * down and the session is saved; a second one leaves at once (after `onForce`). Returns `stop`.
 */
export function onTerminationSignals(abort: () => void, onForce: () => void): () => void {
  let received = 0;
  const handler = () => {
    received++;
    if (received === 1) return abort();
    onForce();
    process.exit(130);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
