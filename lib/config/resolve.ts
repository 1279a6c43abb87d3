import { ShiroError } from "../errors.ts";
import {
  DEFAULT_AGENT,
  DEFAULT_APPROVAL_MODE,
  DEFAULT_BELL,
  DEFAULT_NOTIFY,
  DEFAULT_MEMORY_SUGGESTIONS,
  type MemorySuggestionMode,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_STEPS,
  DEFAULT_MODEL,
  DEFAULT_PROVIDER,
  DEFAULT_PRUNE_AT_TOKENS,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_SANDBOX,
  DEFAULT_SANDBOX_NETWORK,
  DEFAULT_WEB_FETCH_MAX_BYTES,
  DEFAULT_WEB_FETCH_TIMEOUT_MS,
  DEFAULT_SUBAGENT_MAX_STEPS,
  DEFAULT_MAX_PARALLEL_SUBAGENTS,
} from "./defaults.ts";
import type { ConfigFile } from "./schema.ts";
import { APPROVAL_MODES, type ApprovalMode } from "./permission-schema.ts";
import { THINKING_LEVELS, VARIANTS, VARIANT_NAMES, isThinking, isVariantName, type Thinking, type VariantName } from "./variants.ts";
import { PRESETS, clientForHost, isLocalURL, keyVariables, type Api, type Client, type PresetName } from "./presets.ts";

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
  /** `--mode <ask|edits|auto>`: the interactive loop's approval mode. */
  approvalMode?: string;
};

/**
 * Where commands run (lib/sandbox). `mode` "off": directly on this machine, on purpose.
 * `network`: whether the sandbox has it. `writable` / `readable`: extra paths as the user wrote
 * them (`~/.ssh`, `../sibling`), opened or shown in the sandbox.
 */
export type SandboxSettings = { mode: "on" | "off"; network: boolean; writable: string[]; readable: string[]; hide: string[] };

/**
 * web_fetch (config `webFetch`): `allowHosts` (`host` or `host:port`) may be reached on a private
 * address; the whole fetch within `timeoutMs`, at most `maxBytes` read; `readOnlyAgents`: the plan and
 * review agents, and explore and review subagents, get the tool too.
 */
export type WebFetchSettings = { allowHosts: readonly string[]; timeoutMs: number; maxBytes: number; readOnlyAgents: boolean };

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
  /** How much the interactive loop asks at the start (`--mode`, config `approvalMode`; default ask). Headless ignores it. */
  approvalMode: ApprovalMode;
  /** Ring the terminal bell when an approval question is waiting (config `bell`; default on). */
  bell: boolean;
  /** What a user whose terminal lost focus gets when a turn ends or a question waits (config `notify`): "auto", "bell", "off" or a command. */
  notify: string;
  /** What becomes of the notes the model suggests at a session's end (config `memorySuggestions`): "off", "ask" (the loop asks; headless makes no call) or "inbox". */
  memorySuggestions: MemorySuggestionMode;
  webFetch: WebFetchSettings;
  /** Subagents (the task tool): the model explore runs on (undefined: the session's), each one's step cap, how many run at once. */
  subagents: { model: string | undefined; maxSteps: number; maxParallel: number };
};

type Env = Record<string, string | undefined>;

/**
 * Where a setting's value came from: a flag, a variable, the config file (its field), a preset,
 * the agent variant, the built-in default, or nowhere (an optional setting left unset).
 */
export type SettingSource =
  | { kind: "flag" | "env" | "file" | "preset" | "agent"; name: string }
  | { kind: "default" }
  | { kind: "unset" };

/** Each setting by its config-file name (`compactAtTokens`, `sandboxNetwork`), and where its value came from. */
export type SettingSources = Record<string, SettingSource>;

const flag = (name: string): SettingSource => ({ kind: "flag", name });
const envVar = (name: string): SettingSource => ({ kind: "env", name });
const file = (name: string): SettingSource => ({ kind: "file", name });
const BUILT_IN: SettingSource = { kind: "default" };

/** One step of a setting's precedence: where the value would come from, and the value there (undefined: not given). */
type Step<T> = readonly [SettingSource, T | undefined];

/**
 * The first step that has a value, recorded in `sources` under `key`: the one way precedence is
 * applied, so what `shiro config` says is where a value came from is where it did come from.
 */
function pick<T>(sources: SettingSources, key: string, steps: readonly Step<T>[]): T | undefined {
  for (const [source, value] of steps) {
    if (value === undefined) continue;
    sources[key] = source;
    return value;
  }
  sources[key] = { kind: "unset" };
  return undefined;
}

/** pick for a setting whose last step is a default, so it always has a value. */
function pickSet<T>(sources: SettingSources, key: string, steps: readonly [...Step<T>[], readonly [SettingSource, T]]): T {
  return pick(sources, key, steps) as T;
}

/**
 * Applies flag > environment > config file > preset > default, and checks that a key is
 * available when the server is not local. Pure: the environment is passed in. The config file
 * arrives validated (lib/config/load.ts) and flags arrive parsed (cmd/args.ts, with the rules
 * below), so what is checked here is the environment and how the sources combine.
 */
export function resolveSettings(flags: Flags, env: Env, config: ConfigFile, configFile?: string): Settings {
  return traceSettings(flags, env, config, { forRun: true, ...(configFile ? { configFile } : {}) }).settings;
}

/**
 * resolveSettings, also saying where each value came from (`shiro config`). `forRun` refuses
 * what a run cannot start without: a key for a remote server, and a model for a provider that
 * has no default one. Without it, a missing key is left undefined and the model is OpenAI's
 * default (`shiro config` and `shiro doctor` report them rather than stop).
 */
export function traceSettings(flags: Flags, env: Env, config: ConfigFile, opts: { forRun: boolean; configFile?: string }): { settings: Settings; sources: SettingSources } {
  const sources: SettingSources = {};
  const presetName = pickSet<string>(sources, "provider", [[flag("--provider"), flags.provider], [file("provider"), config.provider], [BUILT_IN, DEFAULT_PROVIDER]]);
  if (!(presetName in PRESETS)) {
    throw new ShiroError("usage", `unknown provider "${presetName}". Use one of: ${Object.keys(PRESETS).join(", ")}.`);
  }
  const preset = PRESETS[presetName as PresetName];
  const fromPreset: SettingSource = { kind: "preset", name: presetName };
  const baseURL = pickSet<string>(sources, "baseURL", [
    [flag("--base-url"), flags.baseURL],
    [envVar("SHIRO_BASE_URL"), env.SHIRO_BASE_URL],
    [envVar("OPENAI_BASE_URL"), env.OPENAI_BASE_URL],
    [file("baseURL"), config.baseURL],
    [fromPreset, preset.baseURL],
  ]).replace(/\/+$/, "");
  checkBaseURL(baseURL);

  const apiRaw = pickSet<string>(sources, "api", [[flag("--api"), flags.api], [envVar("SHIRO_API"), env.SHIRO_API], [file("api"), config.api], [fromPreset, preset.api]]);
  if (apiRaw !== "responses" && apiRaw !== "chat") {
    throw new ShiroError("usage", `--api must be "responses" or "chat", not "${apiRaw}".`);
  }

  const agent = pickSet<string>(sources, "agent", [[flag("--agent"), flags.agent], [file("agent"), config.agent], [BUILT_IN, DEFAULT_AGENT]]);
  if (!isVariantName(agent)) throw new ShiroError("usage", `unknown agent "${agent}". Use one of: ${VARIANT_NAMES.join(", ")}.`);
  const variant = VARIANTS[agent];
  const thinkingRaw = pick<string>(sources, "thinking", [[flag("--think"), flags.thinking], [file("thinking"), config.thinking]]);
  if (thinkingRaw !== undefined && !isThinking(thinkingRaw)) throw new ShiroError("usage", `unknown thinking level "${thinkingRaw}". Use one of: ${THINKING_LEVELS.join(", ")}.`);
  if (thinkingRaw === undefined) sources.thinking = { kind: "agent", name: agent };

  const approvalMode = pickSet<string>(sources, "approvalMode", [[flag("--mode"), flags.approvalMode], [file("approvalMode"), config.approvalMode], [BUILT_IN, DEFAULT_APPROVAL_MODE]]);
  if (!isApprovalMode(approvalMode)) throw new ShiroError("usage", `--mode must be one of ${APPROVAL_MODES.join(", ")}, not "${approvalMode}".`);

  const clientRaw = pickSet<string>(sources, "client", [[envVar("SHIRO_CLIENT"), env.SHIRO_CLIENT || undefined], [file("client"), config.client], [BUILT_IN, clientForHost(baseURL)]]);
  if (clientRaw !== "openai" && clientRaw !== "compatible") {
    throw new ShiroError("config", `SHIRO_CLIENT must be "openai" or "compatible", not "${clientRaw}".`);
  }

  const keyEnv = "keyEnv" in preset ? preset.keyEnv : undefined;
  // A named preset's own variable wins over OPENAI_API_KEY, so an OpenAI key is never sent to another
  // vendor; nor is it with the openai preset pointed at another server (--base-url, SHIRO_BASE_URL,
  // config "baseURL"), unless that server gets the OpenAI client (OpenAI's API, Azure, or "client":
  // "openai" for a proxy of OpenAI) or came from OPENAI_BASE_URL, the variable made to pair with it.
  const pairedBaseURL = sources.baseURL?.kind === "env" && sources.baseURL.name === "OPENAI_BASE_URL";
  const readsOpenAIKey = presetName === "openai" && (clientRaw === "openai" || pairedBaseURL);
  const apiKey = pick<string>(sources, "apiKey", [
    [envVar("SHIRO_API_KEY"), env.SHIRO_API_KEY || undefined],
    ...(keyEnv && (keyEnv !== "OPENAI_API_KEY" || readsOpenAIKey) ? [[envVar(keyEnv), env[keyEnv] || undefined] as const] : []),
    [file("apiKey"), config.apiKey || undefined],
  ]);
  const keyFrom = sources.apiKey!;
  const apiKeySource = keyFrom.kind === "env" ? keyFrom.name : keyFrom.kind === "file" ? 'config "apiKey"' : undefined;
  if (!apiKey && !isLocalURL(baseURL) && opts.forRun) throw missingKey(baseURL, presetName, clientRaw, opts.configFile);

  const defaultModel = "defaultModel" in preset ? preset.defaultModel : DEFAULT_MODEL;
  const fromEnv = (name: string, rule: NumberRule) => (env[name] ? settingNumber(env[name], name, rule) : undefined);
  const number = (key: string, steps: readonly [...Step<number>[], readonly [SettingSource, number]]) => pickSet<number>(sources, key, steps);

  const model = pickSet<string>(sources, "model", [[flag("--model"), flags.model], [envVar("SHIRO_MODEL"), env.SHIRO_MODEL], [file("model"), config.model], ["defaultModel" in preset ? fromPreset : BUILT_IN, defaultModel]]);
  // A server with no model of its own to suggest (groq, ollama, …) would be sent OpenAI's default
  // and refuse it; a run is told to choose one instead (doctor and `shiro config` report it).
  if (opts.forRun && lacksModel(presetName, sources)) throw noModelChosen(presetName);

  const settings: Settings = {
    provider: presetName,
    model,
    baseURL,
    apiKey,
    apiKeySource,
    api: apiRaw,
    client: clientRaw,
    store: pickSet<boolean>(sources, "store", [[file("store"), config.store], [BUILT_IN, clientRaw === "openai"]]),
    agent,
    thinking: thinkingRaw ?? variant.thinking,
    thinkingChosen: thinkingRaw !== undefined || agent !== DEFAULT_AGENT,
    maxSteps: number("maxSteps", [[flag("--max-steps"), flags.maxSteps], [envVar("SHIRO_MAX_STEPS"), fromEnv("SHIRO_MAX_STEPS", MAX_STEPS)], [file("maxSteps"), config.maxSteps], [{ kind: "agent", name: agent }, variant.maxSteps]]),
    maxRetries: number("maxRetries", [[envVar("SHIRO_MAX_RETRIES"), numberFromEnv(env, "SHIRO_MAX_RETRIES")], [file("maxRetries"), config.maxRetries], [BUILT_IN, DEFAULT_MAX_RETRIES]]),
    pruneAtTokens: number("compactAtTokens", [[envVar("SHIRO_COMPACT_AT"), numberFromEnv(env, "SHIRO_COMPACT_AT")], [file("compactAtTokens"), config.compactAtTokens], [BUILT_IN, DEFAULT_PRUNE_AT_TOKENS]]),
    contextWindow: pick<number>(sources, "contextWindow", [[envVar("SHIRO_CONTEXT_WINDOW"), fromEnv("SHIRO_CONTEXT_WINDOW", CONTEXT_WINDOW)]]),
    idleTimeoutMs: number("idleTimeoutMs", [[envVar("SHIRO_IDLE_TIMEOUT_MS"), numberFromEnv(env, "SHIRO_IDLE_TIMEOUT_MS")], [file("idleTimeoutMs"), config.idleTimeoutMs], [BUILT_IN, DEFAULT_IDLE_TIMEOUT_MS]]),
    maxSpendUsd: pick<number>(sources, "maxSpendUsd", [[flag("--max-spend"), flags.maxSpendUsd], [file("maxSpendUsd"), config.maxSpendUsd]]),
    retryBaseMs: number("retryBaseMs", [[envVar("SHIRO_RETRY_BASE_MS"), fromEnv("SHIRO_RETRY_BASE_MS", RETRY_BASE_MS)], [BUILT_IN, DEFAULT_RETRY_BASE_MS]]),
    sandbox: {
      mode: pickSet<"on" | "off">(sources, "sandbox", [[flag("--no-sandbox"), flags.sandbox === false ? "off" : undefined], [envVar("SHIRO_SANDBOX"), sandboxFromEnv(env)], [file("sandbox"), config.sandbox], [BUILT_IN, DEFAULT_SANDBOX]]),
      network: pickSet<boolean>(sources, "sandboxNetwork", [[flag("--no-network"), flags.network], [file("sandboxNetwork"), config.sandboxNetwork], [BUILT_IN, DEFAULT_SANDBOX_NETWORK]]),
      writable: pickSet<string[]>(sources, "sandboxWritable", [[file("sandboxWritable"), config.sandboxWritable], [BUILT_IN, []]]),
      readable: pickSet<string[]>(sources, "sandboxReadable", [[file("sandboxReadable"), config.sandboxReadable], [BUILT_IN, []]]),
      hide: pickSet<string[]>(sources, "sandboxHide", [[file("sandboxHide"), config.sandboxHide], [BUILT_IN, []]]),
    },
    approvalMode,
    bell: pickSet<boolean>(sources, "bell", [[file("bell"), config.bell], [BUILT_IN, DEFAULT_BELL]]),
    notify: pickSet<string>(sources, "notify", [[file("notify"), config.notify], [BUILT_IN, DEFAULT_NOTIFY]]),
    memorySuggestions: pickSet<MemorySuggestionMode>(sources, "memorySuggestions", [[file("memorySuggestions"), config.memorySuggestions], [BUILT_IN, DEFAULT_MEMORY_SUGGESTIONS]]),
    webFetch: {
      allowHosts: config.webFetch?.allowHosts ?? [],
      timeoutMs: config.webFetch?.timeoutMs ?? DEFAULT_WEB_FETCH_TIMEOUT_MS,
      maxBytes: config.webFetch?.maxBytes ?? DEFAULT_WEB_FETCH_MAX_BYTES,
      readOnlyAgents: config.webFetch?.readOnlyAgents ?? false,
    },
    subagents: {
      model: config.subagentModel,
      maxSteps: config.subagentMaxSteps ?? DEFAULT_SUBAGENT_MAX_STEPS,
      maxParallel: config.maxParallelSubagents ?? DEFAULT_MAX_PARALLEL_SUBAGENTS,
    },
  };
  return { settings, sources };
}

/**
 * The refusal when a remote server has no key: every place a key can be given for this preset (only
 * the variables it reads: OPENAI_API_KEY is not read for groq), the config file by its path when known.
 */
export function missingKey(baseURL: string, provider: string, client: Client, configFile?: string): ShiroError {
  return new ShiroError(
    "config",
    `no API key for ${baseURL}: set ${keyVariables(provider, client)}, or "apiKey" in ${configFile ?? "the config file"}, or point --base-url at a local server.`,
  );
}

/** Whether no model was chosen for a provider that has none of its own (a run refuses to start so). */
export function lacksModel(provider: string, sources: SettingSources): boolean {
  return sources.model?.kind === "default" && provider !== DEFAULT_PROVIDER;
}

/** The refusal when a provider with no model of its own was given none: how to choose one, and where to see the server's. */
export function noModelChosen(provider: string): ShiroError {
  return new ShiroError(
    "usage",
    `${provider} has no default model: choose one with --model <id>, SHIRO_MODEL or "model" in the config (shiro doctor --provider ${provider} lists the models the server has).`,
  );
}

export function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
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

/** `SHIRO_SANDBOX`: "on" or "off" (empty: not set); anything else is a config error naming both. */
export function sandboxFromEnv(env: Env): "on" | "off" | undefined {
  const raw = env.SHIRO_SANDBOX;
  if (raw === undefined || raw === "") return undefined;
  if (raw === "on" || raw === "off") return raw;
  throw new ShiroError("config", `SHIRO_SANDBOX must be "on" or "off", not "${raw}".`);
}

function numberFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ShiroError("config", `${name}="${raw}" is not a number.`);
  return value;
}

/**
 * A base URL is http:// or https://. Without a scheme ("localhost:8080/v1", which URL would read
 * as the scheme "localhost:") or with another one (ftp://), the error says what to type instead.
 */
function checkBaseURL(baseURL: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(baseURL).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === "http:" || protocol === "https:") return;
  const hint = /^[\w.-]+(:\d+)?(\/|$)/.test(baseURL) && !baseURL.includes("://") ? `--base-url http://${baseURL}` : "something like --base-url http://localhost:11434/v1";
  throw new ShiroError("usage", `base URL "${baseURL}" is not an http:// or https:// address. Pass ${hint}.`);
}
