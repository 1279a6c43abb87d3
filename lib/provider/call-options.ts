import type { Settings } from "../config/resolve.ts";
import type { Thinking } from "../config/variants.ts";

type OptionValue = string | boolean | string[] | Record<string, string | boolean>;

/** What every model call carries besides its messages: spread into `streamText` and `generateText`. */
export type CallOptions = {
  providerOptions?: Record<string, Record<string, OptionValue>>;
  /** `max_tokens` / `max_output_tokens`: set only when the config gives the model a `maxOutputTokens`, fitted into its window. */
  maxOutputTokens?: number;
};

type CallSettings = Pick<Settings, "api" | "client" | "store" | "model" | "provider" | "thinking" | "thinkingChosen">;

/**
 * The one place a request's options are built from the settings (the turn's steps and every
 * call outside a turn read it, through Runtime.callOptions). A new provider option is a setting
 * (lib/config) plus a line here.
 *
 * - Responses: `store` as the settings say, so a stateless server is never sent references to
 *   items it did not keep; for OpenAI's reasoning models a reasoning summary to show, the
 *   effort for the thinking level, and with `store: false` their encrypted reasoning.
 * - Chat, OpenAI client: the effort for OpenAI reasoning models.
 * - Chat, compatible client: the server's own reasoning control, only when a level was chosen
 *   (a server that rejects it gets it dropped: see withoutReasoning).
 * - Both: the output limit, when `maxOutputTokens` is given (ContextWindowInfo.requestOutputTokens,
 *   already fitted into the window; the turn lowers it if the window turns out smaller).
 */
export function callOptions(settings: CallSettings, maxOutputTokens?: number): CallOptions {
  const limit = maxOutputTokens !== undefined ? { maxOutputTokens } : {};
  return { ...providerPart(settings), ...limit };
}

function providerPart(settings: CallSettings): CallOptions {
  const reasoning = settings.client === "openai" && isOpenAIReasoningModel(settings.model);
  if (settings.api === "responses") {
    const openai: Record<string, OptionValue> = { store: settings.store };
    if (reasoning) {
      openai.reasoningSummary = "auto";
      openai.reasoningEffort = openaiEffort(settings.model, settings.thinking);
      if (!settings.store) openai.include = ["reasoning.encrypted_content"];
    }
    return { providerOptions: { openai } };
  }
  if (settings.client === "openai") return reasoning ? { providerOptions: { openai: { reasoningEffort: openaiEffort(settings.model, settings.thinking) } } } : {};
  if (!settings.thinkingChosen) return {};
  // OpenRouter takes `reasoning: { effort }` (or `enabled: false`); the others `reasoning_effort`.
  if (settings.provider === "openrouter") {
    return { providerOptions: { [settings.provider]: { reasoning: settings.thinking === "off" ? { enabled: false } : { effort: settings.thinking === "max" ? "high" : settings.thinking } } } };
  }
  return { providerOptions: { [settings.provider]: { reasoningEffort: settings.thinking === "off" ? "none" : settings.thinking === "max" ? "high" : settings.thinking } } };
}

/**
 * The options with `prompt_cache_key` set to the session's id, whenever the OpenAI client is in use
 * (OpenAI's API, or a server the config says to treat as one), on either wire: OpenAI routes the
 * requests that share a key to the same cache, so a session's requests reuse each other's prefix.
 * The compatible client sends no such field (a strict server could refuse it).
 */
export function withPromptCacheKey(options: CallOptions, settings: Pick<Settings, "client">, sessionId: string): CallOptions {
  if (settings.client !== "openai") return options;
  const openai = { ...(options.providerOptions?.openai ?? {}), promptCacheKey: sessionId };
  return { ...options, providerOptions: { ...options.providerOptions, openai } };
}

/**
 * The options without the session's `prompt_cache_key`: what may be kept for later calls. The key
 * is added per turn (withPromptCacheKey); kept, it would follow subagents and calls outside the
 * turn, which are not the session's requests.
 */
export function withoutPromptCacheKey(options: CallOptions): CallOptions {
  const openai = options.providerOptions?.openai;
  if (!openai || !("promptCacheKey" in openai)) return options;
  const { promptCacheKey: _key, ...rest } = openai;
  return { ...options, providerOptions: { ...options.providerOptions, openai: rest } };
}

/** True when these options carry a reasoning control a server could refuse. */
export function hasReasoningControl(options: CallOptions): boolean {
  return Object.values(options.providerOptions ?? {}).some((o) => "reasoningEffort" in o || "reasoning" in o);
}

/** The same options without any reasoning control: for a server that refused it. */
export function withoutReasoning(options: CallOptions): CallOptions {
  if (!options.providerOptions) return options;
  const providerOptions = Object.fromEntries(
    Object.entries(options.providerOptions).map(([key, value]) => {
      const { reasoningEffort: _effort, reasoning: _reasoning, reasoningSummary: _summary, ...rest } = value;
      return [key, rest];
    }),
  );
  return { ...options, providerOptions };
}

/**
 * A thinking level as the effort this OpenAI model accepts: gpt-5 says `minimal` for off where
 * gpt-5.1 and later say `none`, and the o-series has neither; `xhigh` exists only on the newest
 * models (gpt-5.2 and later, the codex-max models), elsewhere max is `high`.
 */
export function openaiEffort(model: string, level: Thinking): string {
  const id = model.toLowerCase().replace(/^openai\//, "");
  const gpt = /^gpt-(\d+)(?:\.(\d+))?/.exec(id);
  const minor = gpt ? Number(gpt[1]) * 100 + Number(gpt[2] ?? 0) : 0;
  if (level === "off") return gpt ? (minor >= 501 ? "none" : "minimal") : "low";
  if (level === "max") return minor >= 502 || /codex-max/.test(id) ? "xhigh" : "high";
  return level;
}

/** OpenAI's models that reason: the o-series, gpt-5 and later (not the -chat variants), codex. */
export function isOpenAIReasoningModel(model: string): boolean {
  const id = model.toLowerCase().replace(/^openai\//, "");
  if (/^o\d/.test(id) || /codex/.test(id)) return true;
  const gpt = /^gpt-(\d+)/.exec(id);
  return gpt !== null && Number(gpt[1]) >= 5 && !/-chat/.test(id);
}
