import type { LanguageModel } from "ai";
import type { Settings } from "../config/resolve.ts";
import { withErrorChunksAsErrors } from "./chat-stream.ts";
import { compatibleUsage, errorChunkUsageExtractor, reportedCostExtractor } from "./compatible-usage.ts";
import { withIdleTimeout } from "./idle-timeout.ts";
import { reasoningDetailsExtractor } from "./reasoning-details.ts";
import { withReasoningTextAsSummary } from "./responses-stream.ts";
import { fillTracingChannelGap } from "./tracing-channel.ts";

/**
 * Builds the language model for these settings. Imported lazily by the commands that talk to a
 * model, so `--version` and `--help` never load the AI SDK.
 *
 * - Chat Completions with the `compatible` client: @ai-sdk/openai-compatible, which accepts what
 *   real servers send (tool calls without `index`, `reasoning_content` / `reasoning`, usage-only
 *   chunks), sends `reasoning_content` back, and here also reads OpenRouter's `reasoning_details`
 *   and every form of cached and reasoning token counts.
 *   It also keeps the usage of an in-stream error chunk, which the client itself drops.
 * - Everything else: @ai-sdk/openai (Chat Completions or Responses). A Responses server that is
 *   not OpenAI gets its `reasoning_text` deltas read as reasoning; on Chat Completions a chunk with
 *   a top-level `error` beside its choices is made an error chunk, which this client reports.
 */
export async function createModel(settings: Settings, fetchImpl?: typeof fetch): Promise<LanguageModel> {
  fillTracingChannelGap();
  // A stalled provider is given up after settings.idleTimeoutMs instead of Bun's silent five minutes.
  const timed = withIdleTimeout(fetchImpl ?? fetch, settings.idleTimeoutMs);
  // Local servers ignore the key, but the clients insist on sending one.
  const apiKey = settings.apiKey ?? "local";
  if (settings.api === "chat" && settings.client === "compatible") {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    const provider = createOpenAICompatible({
      baseURL: settings.baseURL,
      apiKey,
      name: settings.provider,
      fetch: timed,
      includeUsage: true,
      metadataExtractor: underShiro(reasoningDetailsExtractor, errorChunkUsageExtractor, reportedCostExtractor),
      convertUsage: compatibleUsage,
    });
    return provider.chatModel(settings.model);
  }
  const { openAIModel } = await import("./openai-models.ts");
  return openAIModel(settings.api, settings.model, {
    baseURL: settings.baseURL,
    apiKey,
    name: settings.provider,
    fetch: settings.api === "chat" ? withErrorChunksAsErrors(timed) : settings.client === "compatible" ? withReasoningTextAsSummary(timed) : timed,
  });
}

type ShiroMetadata = { shiro: Record<string, never> } | undefined;
type StreamExtractor = { processChunk(chunk: unknown): void; buildMetadata(): ShiroMetadata };
type Extractor = { extractMetadata(input: { parsedBody: unknown }): Promise<ShiroMetadata>; createStreamExtractor(): StreamExtractor };

/** One metadata extractor from several (the compatible client takes one), their `shiro` entries merged. */
function underShiro(...extractors: Extractor[]): Extractor {
  const merge = (all: ShiroMetadata[]): ShiroMetadata => {
    const shiro = Object.assign({}, ...all.map((m) => m?.shiro ?? {}));
    return Object.keys(shiro).length > 0 ? { shiro } : undefined;
  };
  return {
    extractMetadata: async (input) => merge(await Promise.all(extractors.map((e) => e.extractMetadata(input)))),
    createStreamExtractor() {
      const streams = extractors.map((e) => e.createStreamExtractor());
      return {
        processChunk: (chunk) => streams.forEach((s) => s.processChunk(chunk)),
        buildMetadata: () => merge(streams.map((s) => s.buildMetadata())),
      };
    },
  };
}
