import type { ModelLimits } from "../config/model-limits.ts";
import { clientForHost, isLocalURL } from "../config/presets.ts";
import type { Settings } from "../config/resolve.ts";

/**
 * The kind of server behind a base URL, as far as its model metadata goes. `other` serves only
 * the OpenAI model list (`GET /models`), which some hosts fill with a window field and most don't.
 */
export type ServerKind = "ollama" | "lmstudio" | "vllm" | "llamacpp" | "openrouter" | "openai" | "other";

/**
 * What shiro may ask a server, decided from the settings alone:
 * - `kind`: the endpoints of that kind only (a preset names it, or an earlier detection found it);
 * - `detect`: a server on this machine whose kind is unknown: its candidates are tried once, in
 *   order, and the first that answers names the kind (remembered, so later runs ask only that one);
 * - `none`: OpenAI's own API, whose list says nothing about windows (the built-in table does).
 * Any other host gets `kind: "other"`: only `/models`.
 */
export type ProbePlan = { type: "kind"; kind: ServerKind } | { type: "detect" } | { type: "none" };

const PRESET_KINDS: Partial<Record<string, ServerKind>> = { ollama: "ollama", lmstudio: "lmstudio", vllm: "vllm", llamacpp: "llamacpp", openrouter: "openrouter" };

/** The probe plan for these settings (see ProbePlan). Pure. */
export function probePlan(settings: Pick<Settings, "provider" | "baseURL">): ProbePlan {
  const preset = PRESET_KINDS[settings.provider];
  if (preset) return { type: "kind", kind: preset };
  if (clientForHost(settings.baseURL) === "openai") return { type: "none" };
  if (isLocalURL(settings.baseURL)) return { type: "detect" };
  return { type: "kind", kind: "other" };
}

/** What a server said about one model: its limits, the endpoint that said so, and the kind of server it is. */
export type ServerReport = { kind: ServerKind; limits: Limits; endpoint: string };

export type AskOptions = {
  baseURL: string;
  model: string;
  /** Sent as a bearer token (hosted `/models` may need it); never to another host than baseURL's. */
  apiKey?: string;
  fetch?: typeof fetch;
  /** For the whole ask, every candidate included: a server that does not answer in time does not know. */
  timeoutMs: number;
};

/** Detection order for a server on this machine: the model list first, since vLLM answers there. */
const DETECT_ORDER: readonly ServerKind[] = ["other", "llamacpp", "ollama", "lmstudio"];

/**
 * Asks the server what it knows about the model, following `plan` (never `none`). Resolves with
 * the first answer that names a window, or undefined: a refused, failed, slow or unreadable
 * request is quiet, and the caller falls through to its next source. Never throws.
 */
export async function askServer(plan: Exclude<ProbePlan, { type: "none" }>, opts: AskOptions): Promise<ServerReport | undefined> {
  const kinds = plan.type === "kind" ? [plan.kind] : DETECT_ORDER;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  for (const kind of kinds) {
    if (signal.aborted) return undefined;
    const report = await askKind(kind, { ...opts, signal }).catch(() => undefined);
    if (report) return report;
  }
  return undefined;
}

async function askKind(kind: ServerKind, opts: AskOptions & { signal: AbortSignal }): Promise<ServerReport | undefined> {
  const root = opts.baseURL.replace(/\/v1$/, "");
  switch (kind) {
    case "ollama": {
      const show = await getJson(opts, `${root}/api/show`, { model: opts.model });
      if (show === undefined) return undefined; // not ollama, or no such model
      const shown = readOllamaShow(show);
      if (shown) return { kind, limits: shown, endpoint: "ollama /api/show" };
      // num_ctx not set for the model: what it runs with is the server's choice, which /api/ps shows once it is loaded.
      const running = readOllamaPs(await getJson(opts, `${root}/api/ps`), opts.model);
      return running ? { kind, limits: running, endpoint: "ollama /api/ps" } : undefined;
    }
    case "llamacpp": {
      const limits = readLlamacppProps(await getJson(opts, `${root}/props`));
      return limits ? { kind, limits, endpoint: "llama.cpp /props" } : undefined;
    }
    case "lmstudio": {
      const limits = readLmStudioModel(await getJson(opts, `${root}/api/v0/models/${encodeURIComponent(opts.model)}`));
      return limits ? { kind, limits, endpoint: "LM Studio /api/v0/models" } : undefined;
    }
    case "vllm":
    case "openrouter":
    case "other":
    case "openai": {
      const found = readModelList(await getJson(opts, `${opts.baseURL}/models`), opts.model);
      if (!found) return undefined;
      // A list that carries max_model_len is vLLM's, whatever the preset said.
      const named: ServerKind = found.field === "max_model_len" ? "vllm" : kind === "openai" ? "other" : kind;
      const { field: _field, ...limits } = found;
      return { kind: named, limits, endpoint: `${LIST_NAME[named] ?? "the server's"} /models` };
    }
    default:
      return kind satisfies never;
  }
}

const LIST_NAME: Partial<Record<ServerKind, string>> = { vllm: "vLLM", openrouter: "OpenRouter" };

/** GET (or POST `body` as JSON) and parse; undefined for anything but a 200 with JSON. */
async function getJson(opts: AskOptions & { signal: AbortSignal }, url: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await (opts.fetch ?? fetch)(url, {
    method: body === undefined ? "GET" : "POST",
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: opts.signal,
  });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  return response.json().catch(() => undefined);
}

/** A window, and what else a server said about the model: its output limit, whether it takes images. */
type Limits = ModelLimits & { contextWindow: number; images?: boolean };

/** A whole number of tokens worth believing, or undefined. */
function tokensOf(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 256 && n <= 100_000_000 ? n : undefined;
}

const record = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/**
 * The model's entry in an OpenAI-style list (`{ data: [{ id, … }] }`), read for the fields
 * servers put there: vLLM `max_model_len`, OpenRouter `top_provider.context_length` /
 * `context_length` and `top_provider.max_completion_tokens`, Groq `context_window` and
 * `max_completion_tokens`, Mistral `max_context_length`. `field` says which gave the window.
 */
export function readModelList(body: unknown, model: string): (Limits & { field: string }) | undefined {
  const data = record(body)?.data;
  if (!Array.isArray(data)) return undefined;
  return entryLimits(data.find((m) => record(m)?.id === model));
}

/** The limits one entry of a model list states (see readModelList), or undefined when it states no window. */
export function entryLimits(value: unknown): (Limits & { field: string }) | undefined {
  const entry = record(value);
  if (!entry) return undefined;
  const top = record(entry.top_provider);
  for (const [field, value] of [
    ["max_model_len", entry.max_model_len],
    ["top_provider.context_length", top?.context_length],
    ["context_length", entry.context_length],
    ["context_window", entry.context_window],
    ["max_context_length", entry.max_context_length],
  ] as const) {
    const contextWindow = tokensOf(value);
    if (contextWindow === undefined) continue;
    const maxOutputTokens = tokensOf(top?.max_completion_tokens) ?? tokensOf(entry.max_completion_tokens) ?? tokensOf(entry.max_output_tokens);
    const images = imagesOf(entry);
    return { contextWindow, ...(maxOutputTokens ? { maxOutputTokens } : {}), ...(images !== undefined ? { images } : {}), field };
  }
  return undefined;
}

/** Whether an entry says the model takes images: OpenRouter's `architecture.input_modalities`; undefined where it says nothing. */
function imagesOf(entry: Record<string, unknown>): boolean | undefined {
  const modalities = record(entry.architecture)?.input_modalities;
  return Array.isArray(modalities) ? modalities.includes("image") : undefined;
}

/** llama-server's `/props`: `default_generation_settings.n_ctx`, the context of one slot (what one request gets). */
export function readLlamacppProps(body: unknown): Limits | undefined {
  const props = record(body);
  const contextWindow = tokensOf(record(props?.default_generation_settings)?.n_ctx) ?? tokensOf(props?.n_ctx);
  // `modalities.vision`: whether the server was started with a projector (--mmproj) and so takes images.
  const vision = record(props?.modalities)?.vision;
  return contextWindow ? { contextWindow, ...(typeof vision === "boolean" ? { images: vision } : {}) } : undefined;
}

/**
 * ollama's `/api/show`: the `num_ctx` the model runs with, from its parameters. The model's own
 * maximum (`model_info["<arch>.context_length"]`) is not what ollama gives it, so it is no answer.
 */
export function readOllamaShow(body: unknown): Limits | undefined {
  const parameters = record(body)?.parameters;
  if (typeof parameters !== "string") return undefined;
  const contextWindow = tokensOf(/^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters)?.[1]);
  // `capabilities` lists "vision" for a model that takes images (ollama 0.6 on); older servers leave it out.
  const capabilities = record(body)?.capabilities;
  return contextWindow ? { contextWindow, ...(Array.isArray(capabilities) ? { images: capabilities.includes("vision") } : {}) } : undefined;
}

/** ollama's `/api/ps`: the context a loaded model was given (`context_length`), when it is loaded. */
export function readOllamaPs(body: unknown, model: string): Limits | undefined {
  const models = record(body)?.models;
  if (!Array.isArray(models)) return undefined;
  const names = [model, `${model}:latest`];
  const entry = record(models.find((m) => names.includes(String(record(m)?.name)) || names.includes(String(record(m)?.model))));
  const contextWindow = tokensOf(entry?.context_length);
  return contextWindow ? { contextWindow } : undefined;
}

/** LM Studio's `/api/v0/models/<id>`: the loaded instance's context, else the model's maximum. */
export function readLmStudioModel(body: unknown): Limits | undefined {
  const card = record(body);
  const contextWindow = tokensOf(card?.loaded_context_length) ?? tokensOf(card?.max_context_length);
  // `type`: "vlm" for a vision model, "llm" for one that reads text only.
  const images = card?.type === "vlm" ? true : card?.type === "llm" ? false : undefined;
  return contextWindow ? { contextWindow, ...(images !== undefined ? { images } : {}) } : undefined;
}
