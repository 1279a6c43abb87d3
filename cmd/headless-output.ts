/**
 * stdout for a headless run. When the reader goes away (`shiro -p … | head`), writing stops
 * quietly and `onClosed` runs once (the run is then wound down) — never a stack trace.
 */
export type Output = { write(text: string): void; readonly closed: boolean };

export function createOutput(stream: NodeJS.WriteStream, onClosed: () => void): Output {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClosed();
  };
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") close();
  });
  return {
    get closed() {
      return closed;
    },
    write(text) {
      if (closed) return;
      try {
        stream.write(text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EPIPE") close();
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
