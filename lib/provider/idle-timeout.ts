/** The provider stalled: nothing arrived for `idleMs`. Safe to retry when nothing was shown. */
export class ProviderIdleError extends Error {
  readonly idleMs: number;
  constructor(idleMs: number) {
    super(`the provider sent nothing for ${formatSeconds(idleMs)}, so shiro stopped waiting (SHIRO_IDLE_TIMEOUT_MS sets the limit)`);
    // Not "TimeoutError" or "AbortError": the AI SDK treats those as the user cancelling.
    this.name = "ProviderIdleError";
    this.idleMs = idleMs;
  }
}

/**
 * Wraps `fetchImpl` so that every wait on the provider is bounded: for the response headers, and
 * then for each next chunk of the body. The clock runs only while shiro is waiting on the network
 * (the body is pulled on demand), so time spent running tools never counts. The caller's abort
 * signal still cancels as before. Bun's own idle timer is switched off for these requests so this
 * one decides. `idleMs` of 0 (or not finite) waits forever: no timer, and Bun's is off too.
 */
export function withIdleTimeout(fetchImpl: typeof fetch, idleMs: number): typeof fetch {
  if (!(idleMs > 0) || !Number.isFinite(idleMs)) {
    return ((input, init) => fetchImpl(input, withoutBunTimer(init))) as typeof fetch;
  }
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> => {
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stalled = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        controller.abort(new ProviderIdleError(idleMs));
      }, idleMs);
    };
    const settle = () => {
      clearTimeout(timer);
      timer = undefined;
    };
    const finish = () => {
      settle();
      outer?.removeEventListener("abort", forward);
    };

    arm();
    let response: Response;
    try {
      response = await fetchImpl(input, withoutBunTimer({ ...init, signal: controller.signal }));
    } catch (error) {
      finish();
      throw stalled ? new ProviderIdleError(idleMs) : error;
    }
    settle();
    if (!response.body) {
      finish();
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(sink) {
          arm();
          try {
            const { done, value } = await reader.read();
            settle();
            if (done) {
              finish();
              sink.close();
            } else sink.enqueue(value);
          } catch (error) {
            finish();
            sink.error(stalled ? new ProviderIdleError(idleMs) : error);
          }
        },
        cancel(reason) {
          finish();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return wrapped as typeof fetch;
}

/** Bun's fetch takes `timeout: false` to switch its own idle timer off; other fetches ignore the field. */
function withoutBunTimer(init: RequestInit | undefined): RequestInit {
  const bunInit: RequestInit & { timeout?: boolean } = { ...init, timeout: false };
  return bunInit;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
