import { DEFAULT_CONTEXT_WINDOW } from "../config/defaults.ts";
import { builtInLimits, configuredLimits } from "../config/model-limits.ts";
import { isLocalURL } from "../config/presets.ts";
import type { Settings } from "../config/resolve.ts";
import type { ConfigFile } from "../config/schema.ts";
import type { ContextOverflow } from "./context-overflow.ts";
import { askServer, probePlan, type ServerKind } from "./model-metadata.ts";
import { openWindowCache, type WindowCache } from "./window-cache.ts";

/** Where the window came from, in the order they are tried (`learned` caps whichever won). */
export type WindowSource = "env" | "config" | "server" | "built-in" | "default" | "learned";

/** What shiro knows about the model's context, for budgeting each request. */
export type ContextWindowInfo = {
  /** The context window, in the server's tokens. */
  tokens: number;
  source: WindowSource;
  /** Where exactly, as the header and `shiro doctor` show it: `vLLM /models`, `config models`, … */
  from: string;
  /** The model's output limit where something says it (config, the server, the table). */
  maxOutputTokens?: number;
  /**
   * The output limit sent with each request (`max_tokens` / `max_output_tokens`): only when the
   * config sets `maxOutputTokens`, and never more than half the window, so it fits with the request.
   */
  requestOutputTokens?: number;
  /** Server tokens per estimated token, learned from a refusal that counted the input; at least 1. */
  scale: number;
  /** Most estimated tokens of conversation, after a refusal that named no window (this process only). */
  conversationCap?: number;
  /** The kind of server, where known: it decides the fix a warning suggests. */
  kind?: ServerKind;
  /**
   * Whether the model takes images, where the server says: its metadata (model-metadata.ts), or a
   * refusal of an image (remembered like a refused window). `from` names which, for the refusal's line.
   */
  images?: { takes: boolean; from: string };
};

/** What one refusal taught: the window it stated (if any), and whether that is smaller than assumed. */
export type LearnedWindow = { stated?: number; smaller: boolean };

/** The window of one model on one server for a session; a refusal can shrink it (and is remembered). */
export type ContextWindow = {
  readonly info: ContextWindowInfo;
  /**
   * Takes in a context-length refusal of a request that was `requestTokens` estimated tokens
   * (`conversationTokens` of them the conversation): a stated window replaces a larger one and is
   * saved for this model and server; a server count of the input raises `scale`; a refusal that
   * says nothing halves the conversation allowed, for this process.
   */
  learn(overflow: ContextOverflow, sent: { requestTokens: number; conversationTokens: number }): LearnedWindow;
  /** The server refused a request's images: the model takes none, here and in later sessions (saved like a refused window). */
  learnNoImages(): void;
};

/** A cached window below this is asked again: that small, it gets the start-up warning, so it is likely what the user is fixing right now. */
const RECHECK_BELOW_TOKENS = 8_192;
/** For all of one ask (a detection tries up to four endpoints). */
const LOCAL_TIMEOUT_MS = 2_000;
const REMOTE_TIMEOUT_MS = 5_000;

export type ResolveWindowOptions = {
  settings: Pick<Settings, "provider" | "model" | "baseURL" | "apiKey" | "contextWindow">;
  config: Pick<ConfigFile, "models" | "presets">;
  home: string;
  fetch?: typeof fetch;
  now?: () => number;
};

/**
 * The model's context window, from the first of: env `SHIRO_CONTEXT_WINDOW` or the config's
 * `models` (per preset first); what the server's metadata says (cached, else asked once: see
 * probePlan); the built-in table; DEFAULT_CONTEXT_WINDOW. A window a server stated in a refusal
 * (cached) caps the result. Asks nothing when the config already knows. Never throws: a server
 * that cannot tell is the next source's turn.
 */
export async function resolveContextWindow(opts: ResolveWindowOptions): Promise<ContextWindow> {
  const { settings } = opts;
  const configured = configuredLimits(settings, opts.config);
  const cache = openWindowCache(opts.home, settings.baseURL, settings.model, opts.now);
  const plan = probePlan(settings);
  let kind: ServerKind | undefined = plan.type === "kind" ? plan.kind : plan.type === "none" ? "openai" : undefined;

  let base: Pick<ContextWindowInfo, "tokens" | "source" | "from" | "maxOutputTokens" | "images">;
  if (configured.contextWindow !== undefined) {
    base = { tokens: configured.contextWindow, source: configured.from.contextWindow === "SHIRO_CONTEXT_WINDOW" ? "env" : "config", from: configured.from.contextWindow! };
    if (plan.type === "detect") kind = cache.kind() ?? undefined;
  } else {
    const server = await fromServer(plan, cache, opts);
    kind = server?.kind ?? kind;
    const table = builtInLimits(settings.model);
    if (server) base = { tokens: server.contextWindow, source: "server", from: server.from, ...(server.maxOutputTokens ? { maxOutputTokens: server.maxOutputTokens } : {}), ...(server.images !== undefined ? { images: { takes: server.images, from: server.from } } : {}) };
    else if (table) base = { tokens: table.contextWindow, source: "built-in", from: "built-in table", ...(table.maxOutputTokens ? { maxOutputTokens: table.maxOutputTokens } : {}) };
    else base = { tokens: DEFAULT_CONTEXT_WINDOW, source: "default", from: "default" };
  }
  const maxOutputTokens = configured.maxOutputTokens ?? base.maxOutputTokens ?? builtInLimits(settings.model)?.maxOutputTokens;

  let info: ContextWindowInfo = { ...base, scale: 1, ...(kind ? { kind } : {}) };
  if (maxOutputTokens !== undefined) info.maxOutputTokens = maxOutputTokens;
  const refused = cache.refused();
  if (refused?.contextWindow !== undefined && refused.contextWindow < info.tokens) info = { ...info, tokens: refused.contextWindow, source: "learned", from: REFUSAL };
  if (refused?.scale) info.scale = refused.scale;
  if (refused?.images === false) info.images = { takes: false, from: IMAGES_REFUSED };
  info = fitOutput(info, configured.maxOutputTokens);

  return {
    get info() {
      return info;
    },
    learn(overflow, sent) {
      if (overflow.limit === undefined) {
        const cap = Math.floor(sent.conversationTokens / 2);
        info = { ...info, conversationCap: Math.min(cap, info.conversationCap ?? cap) };
        return { smaller: true };
      }
      const stated = overflow.limit;
      const smaller = stated < info.tokens;
      // The server's own count of what was sent says how far the estimate runs low. Without one, a
      // refusal at the window shiro already assumed means the same, by an unknown amount.
      let scale = info.scale;
      if (overflow.inputTokens && sent.requestTokens > 0) scale = Math.max(scale, overflow.inputTokens / sent.requestTokens);
      else if (!smaller) scale *= 1.25;
      scale = Math.min(8, Math.round(scale * 1000) / 1000);
      info = fitOutput({ ...info, tokens: Math.min(stated, info.tokens), source: "learned", from: REFUSAL, scale }, configured.maxOutputTokens);
      cache.saveRefused({ contextWindow: stated, ...(scale > 1 ? { scale } : {}) });
      return { stated, smaller };
    },
    learnNoImages() {
      info = { ...info, images: { takes: false, from: IMAGES_REFUSED } };
      cache.saveRefused({ images: false });
    },
  };
}

const REFUSAL = "stated by the server when it refused a request";
const IMAGES_REFUSED = "the server refused an image";

/** The configured output limit, fitted into the window (at most half of it). */
function fitOutput(info: ContextWindowInfo, configured: number | undefined): ContextWindowInfo {
  if (configured === undefined) return info;
  return { ...info, requestOutputTokens: Math.max(1, Math.min(configured, Math.floor(info.tokens / 2))) };
}

/** The server's answer: cached when fresh (and not suspiciously small), else asked and cached. */
async function fromServer(
  plan: ReturnType<typeof probePlan>,
  cache: WindowCache,
  opts: ResolveWindowOptions,
): Promise<{ contextWindow: number; maxOutputTokens?: number; images?: boolean; from: string; kind?: ServerKind } | undefined> {
  if (plan.type === "none") return undefined;
  const cachedKind = plan.type === "detect" ? cache.kind() : plan.kind;
  const cached = cache.reported();
  if (cached && (cached.contextWindow === undefined || cached.contextWindow >= RECHECK_BELOW_TOKENS)) {
    if (cached.contextWindow === undefined) return undefined;
    return { contextWindow: cached.contextWindow, ...(cached.maxOutputTokens ? { maxOutputTokens: cached.maxOutputTokens } : {}), ...(cached.images !== undefined ? { images: cached.images } : {}), from: `${cached.endpoint ?? "the server"}, cached`, ...(cachedKind ? { kind: cachedKind } : {}) };
  }
  const ask = {
    baseURL: opts.settings.baseURL,
    model: opts.settings.model,
    ...(opts.settings.apiKey ? { apiKey: opts.settings.apiKey } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    timeoutMs: isLocalURL(opts.settings.baseURL) ? LOCAL_TIMEOUT_MS : REMOTE_TIMEOUT_MS,
  };
  let report = plan.type === "detect" && cachedKind ? await askServer({ type: "kind", kind: cachedKind }, ask) : undefined;
  // Detect when nothing is remembered, or when the remembered kind no longer answers (another server on that port).
  if (plan.type === "detect" && !report) {
    report = await askServer(plan, ask);
    cache.saveKind(report?.kind ?? null);
  } else if (plan.type === "kind") report = await askServer(plan, ask);
  if (!report) {
    cache.saveReported({});
    return undefined;
  }
  const { contextWindow, maxOutputTokens, images } = report.limits;
  const said = { ...(maxOutputTokens ? { maxOutputTokens } : {}), ...(images !== undefined ? { images } : {}) };
  cache.saveReported({ contextWindow, ...said, endpoint: report.endpoint });
  return { contextWindow, ...said, from: report.endpoint, kind: report.kind };
}

/** How to give this kind of server a larger context, as one clause for a warning or an error. */
export function largerContextFix(kind: ServerKind | undefined, model: string): string {
  switch (kind) {
    case "ollama":
      return "start ollama with a larger context (OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or PARAMETER num_ctx in a Modelfile)";
    case "llamacpp":
      return "start llama-server with a larger context (-c 32768; with --parallel N each request gets 1/N of it)";
    case "vllm":
      return `start vLLM with a larger context (vllm serve ${model} --max-model-len 32768)`;
    case "lmstudio":
      return `load the model with a larger context (lms load ${model} --context-length 32768)`;
    case "openrouter":
    case "openai":
    case "other":
      return "use a model with a larger context";
    case undefined:
      return "give the model a larger context on the server";
    default:
      return kind satisfies never;
  }
}
