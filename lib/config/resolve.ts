import { ShiroError } from "../errors.ts";
import {
  DEFAULT_AGENT,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_STEPS,
  DEFAULT_MODEL,
  DEFAULT_PROVIDER,
  DEFAULT_PRUNE_AT_TOKENS,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_SANDBOX,
  DEFAULT_SANDBOX_NETWORK,
  DEFAULT_SUBAGENT_MAX_STEPS,
  DEFAULT_MAX_PARALLEL_SUBAGENTS,
} from "./defaults.ts";
import type { ConfigFile } from "./schema.ts";
import { THINKING_LEVELS, VARIANTS, VARIANT_NAMES, isThinking, isVariantName, type Thinking, type VariantName } from "./variants.ts";
import { PRESETS, clientForHost, isLocalURL, type Api, type Client, type PresetName } from "./presets.ts";

/** Command-line values that override everything else (cmd/args.ts flagsFrom builds them). */
export type Flags = {
  model?: string;
  baseURL?: string;
  api?: string;
  provider?: string;
  maxSteps?: number;
  maxSpendUsd?: number;
  agent?: string;
  thinking?: string;
  /** False with `--no-sandbox`; undefined when the flag is not given. */
  sandbox?: boolean;
  /** False with `--no-network`; undefined when the flag is not given. */
  network?: boolean;
};

/**
 * Where commands run (lib/sandbox). `mode` "off": directly on this machine, on purpose.
 * `network`: whether the sandbox has it. `writable` / `readable`: extra paths as the user wrote
 * them (`~/.ssh`, `../sibling`), opened or shown in the sandbox.
 */
export type SandboxSettings = { mode: "on" | "off"; network: boolean; writable: string[]; readable: string[] };

/** Every setting a run reads, after precedence is applied. Nothing downstream re-reads env or flags. */
export type Settings = {
  provider: string;
  model: string;
  baseURL: string;
  /** Undefined only for local servers. Never written to any file. */
  apiKey: string | undefined;
  /** Where the key came from (a variable's name, or `config "apiKey"`), for the advice on a 401. */
  apiKeySource: string | undefined;
  api: Api;
  /**
   * Which client talks to the server: `openai` (@ai-sdk/openai, for OpenAI and Azure OpenAI) or
   * `compatible` (@ai-sdk/openai-compatible, for every other Chat Completions server). Chosen by
   * host; config `client` / env `SHIRO_CLIENT` override it.
   */
  client: Client;
  /**
   * Responses wire: whether the server keeps output items, so later requests may point at them
   * (`item_reference`). On for the OpenAI client, off elsewhere (stateless servers get the whole
   * history inline); config `store` overrides (off for OpenAI organisations with zero data retention).
   */
  store: boolean;
  /** The agent variant (lib/config/variants.ts): its tools, step cap, thinking and prompt appendix. */
  agent: VariantName;
  /** How hard the model thinks: `--think`, config `thinking`, else the variant's level. */
  thinking: Thinking;
  /** True when the level was chosen (flag, config or a variant other than default), not left to the server. */
  thinkingChosen: boolean;
  maxSteps: number;
  maxRetries: number;
  /**
   * Estimated tokens of conversation past which the request is pruned (config `compactAtTokens`,
   * env `SHIRO_COMPACT_AT`). A ceiling: a smaller context window lowers it (lib/agent/context-budget.ts).
   */
  pruneAtTokens: number;
  /**
   * The context window of whatever model is used, as env `SHIRO_CONTEXT_WINDOW` states it; it wins
   * over the config's `models` and anything the server says, so nothing is asked. Undefined: not set.
   */
  contextWindow: number | undefined;
  /** How long the provider may send nothing before a request is given up (0: never). */
  idleTimeoutMs: number;
  /** Refuse a new turn once the session has cost this much (`--max-spend`, config `maxSpendUsd`). */
  maxSpendUsd: number | undefined;
  /** First retry backoff of a failed step, doubling per attempt. Tests shorten it (`SHIRO_RETRY_BASE_MS`). */
  retryBaseMs: number;
  /** The sandbox: flag > config > default (on, with network). */
  sandbox: SandboxSettings;
  /** Subagents (the task tool): the model explore runs on (undefined: the session's), each one's step cap, how many run at once. */
  subagents: { model: string | undefined; maxSteps: number; maxParallel: number };
};

type Env = Record<string, string | undefined>;

/**
 * Applies flag > environment > config file > preset > default, and checks that a key is
 * available when the server is not local. Pure: the environment is passed in. The config file
 * arrives validated (lib/config/load.ts) and flags arrive parsed (cmd/args.ts, with the rules
 * below), so what is checked here is the environment and how the sources combine.
 */
export function resolveSettings(flags: Flags, env: Env, config: ConfigFile): Settings {
  const presetName = (flags.provider ?? config.provider ?? DEFAULT_PROVIDER) as string;
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

  const agent = flags.agent ?? config.agent ?? DEFAULT_AGENT;
  if (!isVariantName(agent)) throw new ShiroError("usage", `unknown agent "${agent}". Use one of: ${VARIANT_NAMES.join(", ")}.`);
  const variant = VARIANTS[agent];
  const thinkingRaw = flags.thinking ?? config.thinking;
  if (thinkingRaw !== undefined && !isThinking(thinkingRaw)) throw new ShiroError("usage", `unknown thinking level "${thinkingRaw}". Use one of: ${THINKING_LEVELS.join(", ")}.`);

  const clientRaw = env.SHIRO_CLIENT || config.client || clientForHost(baseURL);
  if (clientRaw !== "openai" && clientRaw !== "compatible") {
    throw new ShiroError("config", `SHIRO_CLIENT must be "openai" or "compatible", not "${clientRaw}".`);
  }

  const keyEnv = "keyEnv" in preset ? preset.keyEnv : undefined;
  // A named preset's own variable wins over OPENAI_API_KEY, so an OpenAI key is never sent to another vendor.
  const presetKey = keyEnv ? env[keyEnv] : undefined;
  const openaiKey = presetName === "openai" ? env.OPENAI_API_KEY : undefined;
  const apiKey = env.SHIRO_API_KEY || presetKey || openaiKey || config.apiKey || undefined;
  const apiKeySource = env.SHIRO_API_KEY ? "SHIRO_API_KEY" : presetKey ? keyEnv : openaiKey ? "OPENAI_API_KEY" : config.apiKey ? 'config "apiKey"' : undefined;
  if (!apiKey && !isLocalURL(baseURL)) {
    const named = keyEnv && keyEnv !== "OPENAI_API_KEY" ? `${keyEnv}, ` : "";
    throw new ShiroError(
      "config",
      `no API key for ${baseURL}: set ${named}SHIRO_API_KEY or OPENAI_API_KEY, or "apiKey" in the config file, or point --base-url at a local server.`,
    );
  }

  const defaultModel = "defaultModel" in preset ? preset.defaultModel : DEFAULT_MODEL;
  const fromEnv = (name: string, rule: NumberRule) => (env[name] ? settingNumber(env[name], name, rule) : undefined);

  return {
    provider: presetName,
    model: flags.model ?? env.SHIRO_MODEL ?? config.model ?? defaultModel,
    baseURL,
    apiKey,
    apiKeySource,
    api: apiRaw,
    client: clientRaw,
    store: config.store ?? clientRaw === "openai",
    agent,
    thinking: thinkingRaw ?? variant.thinking,
    thinkingChosen: thinkingRaw !== undefined || agent !== DEFAULT_AGENT,
    maxSteps: flags.maxSteps ?? fromEnv("SHIRO_MAX_STEPS", MAX_STEPS) ?? config.maxSteps ?? variant.maxSteps,
    maxRetries: numberFromEnv(env, "SHIRO_MAX_RETRIES") ?? config.maxRetries ?? DEFAULT_MAX_RETRIES,
    pruneAtTokens: numberFromEnv(env, "SHIRO_COMPACT_AT") ?? config.compactAtTokens ?? DEFAULT_PRUNE_AT_TOKENS,
    contextWindow: fromEnv("SHIRO_CONTEXT_WINDOW", CONTEXT_WINDOW),
    idleTimeoutMs: numberFromEnv(env, "SHIRO_IDLE_TIMEOUT_MS") ?? config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxSpendUsd: flags.maxSpendUsd ?? config.maxSpendUsd,
    retryBaseMs: fromEnv("SHIRO_RETRY_BASE_MS", RETRY_BASE_MS) ?? DEFAULT_RETRY_BASE_MS,
    sandbox: {
      mode: flags.sandbox === false ? "off" : (config.sandbox ?? DEFAULT_SANDBOX),
      network: flags.network ?? config.sandboxNetwork ?? DEFAULT_SANDBOX_NETWORK,
      writable: config.sandboxWritable ?? [],
      readable: config.sandboxReadable ?? [],
    },
    subagents: {
      model: config.subagentModel,
      maxSteps: config.subagentMaxSteps ?? DEFAULT_SUBAGENT_MAX_STEPS,
      maxParallel: config.maxParallelSubagents ?? DEFAULT_MAX_PARALLEL_SUBAGENTS,
    },
  };
}

/** What a numeric setting accepts, in the words of the message that rejects anything else. */
type NumberRule = { accepts: (value: number) => boolean; expected: string };

const MAX_STEPS: NumberRule = { accepts: (n) => Number.isInteger(n) && n >= 1, expected: "a whole number of at least 1" };
const MAX_SPEND_USD: NumberRule = { accepts: (n) => Number.isFinite(n) && n >= 0, expected: "an amount in USD such as 2.50" };
const CONTEXT_WINDOW: NumberRule = { accepts: (n) => Number.isInteger(n) && n >= 1000, expected: "a whole number of tokens, at least 1000" };
const RETRY_BASE_MS: NumberRule = { accepts: (n) => Number.isFinite(n) && n >= 0, expected: "a number of milliseconds, 0 or more" };

/** `--max-steps <n>` (or `SHIRO_MAX_STEPS`): a usage error naming `source` unless a whole number ≥ 1. */
export function parseMaxSteps(raw: string, source: string): number {
  return settingNumber(raw, source, MAX_STEPS);
}

/** `--max-spend <usd>`: a usage error naming `source` unless an amount of 0 or more. */
export function parseMaxSpendUsd(raw: string, source: string): number {
  return settingNumber(raw, source, MAX_SPEND_USD);
}

/** A number the user typed for one setting. Wrong on the command line is a usage error; in the environment, a config error. */
function settingNumber(raw: string, source: string, rule: NumberRule): number {
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  if (rule.accepts(value)) return value;
  throw new ShiroError(source.startsWith("-") ? "usage" : "config", `${source} must be ${rule.expected}, not "${raw}".`);
}

function numberFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ShiroError("config", `${name}="${raw}" is not a number.`);
  return value;
}
