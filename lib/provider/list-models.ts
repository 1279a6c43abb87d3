import { isLocalURL } from "../config/presets.ts";
import { entryLimits } from "./model-metadata.ts";

/** One model a server offers, with its context window when the list states one. */
export type ListedModel = { id: string; contextWindow?: number };

/**
 * What `GET {baseURL}/models` said:
 * - `list`: the server's models, in its order;
 * - `no-list`: it answered, but with no list (a 404, an error status, or a body that is not one);
 * - `unreachable`: no answer at all (refused, unknown host, too slow), with the reason in words.
 */
export type ModelListing =
  | { type: "list"; models: ListedModel[] }
  | { type: "no-list"; status: number; why: string }
  | { type: "unreachable"; why: string };

export type ListOptions = {
  baseURL: string;
  /** Sent as a bearer token, to baseURL's host only. */
  apiKey?: string;
  timeoutMs: number;
  /** Stops the request early (esc in the loop); reported like a timeout. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
};

const REFUSED = /ECONNREFUSED|ConnectionRefused|Unable to connect/i;

/**
 * Asks the server for its models (`GET /models`, the OpenAI list every compatible server serves).
 * Never throws: whatever goes wrong is a `no-list` or `unreachable` answer that says why.
 */
export async function listModels(opts: ListOptions): Promise<ModelListing> {
  const url = `${opts.baseURL}/models`;
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, { headers, signal: opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs) });
  } catch (error) {
    return { type: "unreachable", why: unreachableWhy(error, opts) };
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    const why = response.status === 401 || response.status === 403 ? `${url} refused the key (HTTP ${response.status})` : `${url} answered HTTP ${response.status}`;
    return { type: "no-list", status: response.status, why };
  }
  const body = await response.json().catch(() => undefined);
  const data = body && typeof body === "object" ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return { type: "no-list", status: 200, why: `${url} answered without a model list` };
  const models: ListedModel[] = [];
  for (const entry of data) {
    const id = entry && typeof entry === "object" ? (entry as { id?: unknown }).id : undefined;
    if (typeof id !== "string" || id === "") continue;
    const window = entryLimits(entry)?.contextWindow;
    models.push({ id, ...(window !== undefined ? { contextWindow: window } : {}) });
  }
  return { type: "list", models };
}

/** A failed request in words: a refused connection names the URL (and, on this machine, asks whether the server runs). */
function unreachableWhy(error: unknown, opts: ListOptions): string {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (opts.signal?.aborted) return "the request was stopped";
  if (name === "TimeoutError" || name === "AbortError") return `${opts.baseURL} did not answer within ${Math.round(opts.timeoutMs / 100) / 10} s`;
  const code = (error as { code?: unknown })?.code;
  if (REFUSED.test(message) || code === "ECONNREFUSED" || code === "ConnectionRefused") {
    return `could not connect to ${opts.baseURL} (connection refused${isLocalURL(opts.baseURL) ? ": is the server running?" : ""})`;
  }
  return `could not reach ${opts.baseURL}: ${message.split("\n")[0]}`;
}
