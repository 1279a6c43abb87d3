/** Chat Completions `usage` as the servers send it; every field optional, some vendor-only. */
type RawUsage = {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for cached input. */
  prompt_cache_hit_tokens?: number | null;
};

/** The AI SDK's usage shape (LanguageModelV4Usage). */
export type SdkUsage = {
  inputTokens: { total: number | undefined; noCache: number | undefined; cacheRead: number | undefined; cacheWrite: undefined };
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined };
  raw?: Record<string, never>;
};

/**
 * Usage from a compatible server, read the ways servers report it:
 * - cached input as `prompt_tokens_details.cached_tokens` (OpenAI, vLLM, …) or
 *   `prompt_cache_hit_tokens` (DeepSeek);
 * - reasoning inside `completion_tokens` (OpenAI's rule) or outside it (xAI): when `total_tokens`
 *   shows the reasoning was not counted in the completion, it is added, so output and cost include it.
 */
export function compatibleUsage(raw: unknown): SdkUsage {
  const usage = (raw ?? {}) as RawUsage;
  if (raw == null) return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  const reasoningApart = reasoning > 0 && typeof usage.total_tokens === "number" && usage.total_tokens >= prompt + completion + reasoning;
  const output = reasoningApart ? completion + reasoning : completion;
  return {
    inputTokens: { total: prompt, noCache: prompt - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: output, text: Math.max(0, output - reasoning), reasoning },
    raw: raw as Record<string, never>,
  };
}

/** The provider-metadata key (under `shiro`) of the usage an error chunk carried. */
export const ERROR_CHUNK_USAGE_KEY = "errorChunkUsage";

/** Token counts as shiro keeps them (lib/events.ts Usage), from a chunk the client did not read. */
export type ErrorChunkUsage = { inputTokens: number; outputTokens: number; cachedInputTokens?: number };

/**
 * A metadata extractor for @ai-sdk/openai-compatible that keeps the `usage` of a chunk with a
 * top-level `error` (OpenRouter sends the tokens already billed beside the error). The client stops
 * reading such a chunk at its `error`, so without this a failed step would cost 0 tokens.
 */
export const errorChunkUsageExtractor = {
  async extractMetadata() {
    return undefined;
  },
  createStreamExtractor() {
    let usage: ErrorChunkUsage | undefined;
    return {
      processChunk(chunk: unknown) {
        const c = chunk as { error?: unknown; usage?: unknown } | null;
        if (!c || typeof c !== "object" || c.error == null || c.usage == null) return;
        const sdk = compatibleUsage(c.usage);
        usage = {
          inputTokens: sdk.inputTokens.total ?? 0,
          outputTokens: sdk.outputTokens.total ?? 0,
          ...(sdk.inputTokens.cacheRead ? { cachedInputTokens: sdk.inputTokens.cacheRead } : {}),
        };
      },
      buildMetadata: () => (usage ? { shiro: { [ERROR_CHUNK_USAGE_KEY]: usage as never } } : undefined),
    };
  },
};

/** The provider-metadata key (under `shiro`) of what the server said a call cost. */
export const REPORTED_COST_KEY = "reportedCostUsd";

/** A usage's `cost`, when the server states one (OpenRouter: USD, exact, in every usage chunk). */
function costOf(usage: unknown): number | undefined {
  const cost = (usage as { cost?: unknown } | null | undefined)?.cost;
  return typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : undefined;
}

/**
 * A metadata extractor for @ai-sdk/openai-compatible that keeps the cost a server reports beside
 * its usage (OpenRouter's `usage.cost`, what the call was billed), which the client drops. shiro
 * counts it instead of its own price table, which knows few of the models such gateways serve.
 */
export const reportedCostExtractor = {
  async extractMetadata({ parsedBody }: { parsedBody: unknown }) {
    const cost = costOf((parsedBody as { usage?: unknown } | null)?.usage);
    return cost === undefined ? undefined : { shiro: { [REPORTED_COST_KEY]: cost as never } };
  },
  createStreamExtractor() {
    let cost: number | undefined;
    return {
      processChunk(chunk: unknown) {
        cost = costOf((chunk as { usage?: unknown } | null)?.usage) ?? cost;
      },
      buildMetadata: () => (cost === undefined ? undefined : { shiro: { [REPORTED_COST_KEY]: cost as never } }),
    };
  },
};
