import type { Settings } from "./resolve.ts";
import type { ConfigFile } from "./schema.ts";
import type { PresetName } from "./presets.ts";

/** A model's context window and output limit, in the server's tokens; either may be unknown. */
export type ModelLimits = { contextWindow?: number; maxOutputTokens?: number };

/** What the user set for the model in use, and where, in the words the header and `shiro doctor` show. */
export type ConfiguredLimits = ModelLimits & { from: { contextWindow?: string; maxOutputTokens?: string } };

/**
 * The limits the user set for `settings.model`, each field from the first of: env
 * `SHIRO_CONTEXT_WINDOW` (the window only, for any model), the config's
 * `presets.<provider>.models["<id>"]`, then its `models["<id>"]`. The id is matched exactly, as
 * the server spells it. Pure.
 */
export function configuredLimits(settings: Pick<Settings, "provider" | "model" | "contextWindow">, config: Pick<ConfigFile, "models" | "presets">): ConfiguredLimits {
  const id = settings.model;
  const presetEntry = config.presets?.[settings.provider as PresetName]?.models?.[id];
  const entry = config.models?.[id];
  const out: ConfiguredLimits = { from: {} };
  const pick = (field: keyof ModelLimits) => {
    if (presetEntry?.[field] !== undefined) {
      out[field] = presetEntry[field];
      out.from[field] = `config presets.${settings.provider}.models`;
    } else if (entry?.[field] !== undefined) {
      out[field] = entry[field];
      out.from[field] = "config models";
    }
  };
  if (settings.contextWindow !== undefined) {
    out.contextWindow = settings.contextWindow;
    out.from.contextWindow = "SHIRO_CONTEXT_WINDOW";
  } else pick("contextWindow");
  pick("maxOutputTokens");
  return out;
}

type KnownModel = { match: RegExp; contextWindow: number; maxOutputTokens?: number };

/**
 * Hosted models whose limits are published: OpenAI's families, and the default models of the
 * hosted presets. First match wins, so narrower patterns come first. Ids are matched
 * lower-cased, without a vendor prefix (`openai/gpt-4o` on OpenRouter) and with any date suffix.
 */
const KNOWN_MODELS: readonly KnownModel[] = [
  { match: /^gpt-5(\.\d+)?-chat/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { match: /^gpt-5(\.\d+)?-pro/, contextWindow: 400_000, maxOutputTokens: 272_000 },
  { match: /^gpt-5/, contextWindow: 400_000, maxOutputTokens: 128_000 },
  { match: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { match: /^gpt-4o/, contextWindow: 128_000, maxOutputTokens: 16_384 },
  { match: /^gpt-4-turbo|^gpt-4-\d{4}-preview/, contextWindow: 128_000, maxOutputTokens: 4_096 },
  { match: /^gpt-4-32k/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  { match: /^gpt-4(-\d{4})?$/, contextWindow: 8_192, maxOutputTokens: 8_192 },
  { match: /^gpt-3\.5-turbo/, contextWindow: 16_385, maxOutputTokens: 4_096 },
  { match: /^gpt-oss-/, contextWindow: 131_072 },
  { match: /^o1-mini/, contextWindow: 128_000, maxOutputTokens: 65_536 },
  { match: /^o1-preview/, contextWindow: 128_000, maxOutputTokens: 32_768 },
  { match: /^(o1|o3|o4-mini|codex-mini)/, contextWindow: 200_000, maxOutputTokens: 100_000 },
  { match: /^deepseek-reasoner/, contextWindow: 128_000, maxOutputTokens: 64_000 },
  { match: /^deepseek-chat/, contextWindow: 128_000, maxOutputTokens: 8_192 },
  { match: /^grok-code-fast/, contextWindow: 256_000 },
  { match: /^devstral-medium/, contextWindow: 131_072 },
  { match: /^gemini-2\.5-(pro|flash)/, contextWindow: 1_048_576, maxOutputTokens: 65_536 },
];

/** The published limits of a well-known hosted model, or undefined. Pure. */
export function builtInLimits(model: string): Required<Pick<ModelLimits, "contextWindow">> & ModelLimits | undefined {
  const id = model.toLowerCase().replace(/^[\w.-]+\//, "");
  const known = KNOWN_MODELS.find((k) => k.match.test(id));
  if (!known) return undefined;
  return { contextWindow: known.contextWindow, ...(known.maxOutputTokens ? { maxOutputTokens: known.maxOutputTokens } : {}) };
}
