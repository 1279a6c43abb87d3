/**
 * Waiting before a request is sent again after a provider failure that may pass (rate limit,
 * overload, a dropped connection): the words that say so, and the wait itself. A turn
 * (turn.ts) and a request outside one (generate.ts: /compact, /memory) wait the same way.
 */

/** `429 rate limited; retrying in 2.0s (attempt 2 of 3)`: the server's words without their full stop. */
export function retryNotice(message: string, delayMs: number, attempt: number, maxRetries: number): string {
  return `${message.replace(/[.;:,\s]+$/, "")}; retrying in ${formatDelay(delayMs)} (attempt ${attempt + 1} of ${maxRetries + 1})`;
}

export function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}

/** Resolves true after `ms`, or false as soon as the signal aborts (at once if it already has). */
export function waitToRetry(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
