/**
 * At most `max()` holders at a time; the rest wait in order. `acquire` resolves with a release
 * function, or with undefined when `signal` aborts first (the waiter then never runs).
 */
export function createLimiter(max: () => number) {
  let running = 0;
  const queue: { grant: () => void }[] = [];
  const next = () => {
    while (running < Math.max(1, max()) && queue.length > 0) {
      running++;
      queue.shift()!.grant();
    }
  };
  return {
    acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve(undefined);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          running--;
          next();
        };
        const waiter = {
          grant: () => {
            signal.removeEventListener("abort", onAbort);
            resolve(release);
          },
        };
        const onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          resolve(undefined);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
        next();
      });
    },
  };
}
