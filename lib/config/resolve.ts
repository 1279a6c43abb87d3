import { ShiroError } from "../errors.ts";
import { IDLE_TIMEOUT_MS } from "../fetch-idle-timeout.ts";
import { COMPACT_AT_TOKENS } from "../prune/tokens.ts";
import type { ConfigFile } from "./schema.ts";
import { DEFAULT_MODEL, PRESETS, isLocalURL, type Api, type PresetName } from "./presets.ts";

/** Command-line values that override everything else. */
export type Flags = {
  model?: string;
  baseURL?: string;
  api?: string;
  provider?: string;
  maxSteps?: number;
};

/** Everything a run needs to reach a model, after precedence is applied. */
export type Settings = {
  provider: string;
  model: string;
  baseURL: string;
  /** Undefined only for local servers. Never written to any file. */
  apiKey: string | undefined;
  api: Api;
  maxSteps: number;
  maxRetries: number;
  compactAtTokens: number;
  /** How long the provider may send nothing before a request is given up (0: never). */
  idleTimeoutMs: number;
  maxSpendUsd: number | undefined;
  /** The first retry's delay; later ones double. Tests shorten it (SHIRO_RETRY_BASE_MS). */
  retryBaseMs: number;
};

export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_MS = 1_000;

/**
 * Applies flag > environment > config file > preset > default, and checks that a key is
 * available when the server is not local. Pure: the environment is passed in.
 */
export function resolveSettings(flags: Flags, env: Record<string, string | undefined>, config: ConfigFile): Settings {
  const presetName = (flags.provider ?? config.provider ?? "openai") as string;
  if (!(presetName in PRESETS)) {
    throw new ShiroError("usage", `unknown provider "${presetName}". Use one of: ${Object.keys(PRESETS).join(", ")}.`);
  }
  const preset = PRESETS[presetName as PresetName];
  const baseURL = (flags.baseURL ?? env.SHIRO_BASE_URL ?? env.OPENAI_BASE_URL ?? config.baseURL ?? preset.baseURL).replace(/\/+$/, "");
  try {
    new URL(baseURL);
  } catch {
    throw new ShiroError("usage", `base URL "${baseURL}" is not a URL. Pass something like --base-url http://localhost:11434/v1.`);
  }

  const apiRaw = flags.api ?? env.SHIRO_API ?? config.api ?? preset.api;
  if (apiRaw !== "responses" && apiRaw !== "chat") {
    throw new ShiroError("usage", `--api must be "responses" or "chat", not "${apiRaw}".`);
  }

  const keyEnv = "keyEnv" in preset ? preset.keyEnv : undefined;
  // A named preset's own variable wins over OPENAI_API_KEY, so an OpenAI key is never sent to another vendor.
  const presetKey = keyEnv ? env[keyEnv] : undefined;
  const openaiKey = presetName === "openai" ? env.OPENAI_API_KEY : undefined;
  const apiKey = env.SHIRO_API_KEY || presetKey || openaiKey || config.apiKey || undefined;
  if (!apiKey && !isLocalURL(baseURL)) {
    const named = keyEnv && keyEnv !== "OPENAI_API_KEY" ? `${keyEnv}, ` : "";
    throw new ShiroError(
      "config",
      `no API key for ${baseURL}: set ${named}SHIRO_API_KEY or OPENAI_API_KEY, or "apiKey" in the config file, or point --base-url at a local server.`,
    );
  }

  const defaultModel = "defaultModel" in preset ? preset.defaultModel : DEFAULT_MODEL;
  const model = flags.model ?? env.SHIRO_MODEL ?? config.model ?? defaultModel;

  const maxSteps = flags.maxSteps ?? numberFromEnv(env, "SHIRO_MAX_STEPS") ?? config.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ShiroError("usage", `--max-steps must be a whole number of at least 1, not ${maxSteps}.`);
  }

  return {
    provider: presetName,
    model,
    baseURL,
    apiKey,
    api: apiRaw,
    maxSteps,
    maxRetries: numberFromEnv(env, "SHIRO_MAX_RETRIES") ?? config.maxRetries ?? DEFAULT_MAX_RETRIES,
    compactAtTokens: numberFromEnv(env, "SHIRO_COMPACT_AT") ?? config.compactAtTokens ?? COMPACT_AT_TOKENS,
    idleTimeoutMs: numberFromEnv(env, "SHIRO_IDLE_TIMEOUT_MS") ?? config.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    maxSpendUsd: config.maxSpendUsd,
    retryBaseMs: numberFromEnv(env, "SHIRO_RETRY_BASE_MS") ?? DEFAULT_RETRY_BASE_MS,
  };
}

function numberFromEnv(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ShiroError("config", `${name}="${raw}" is not a number.`);
  return value;
}
