/**
 * Every setting's built-in default: the last step of flag > environment > config file > preset >
 * default. Only `resolveSettings` applies them (the context window's, which can also come from the
 * server, only `resolveContextWindow`); everything downstream takes the resolved value as a
 * required parameter, so a default is never applied a second time somewhere else.
 */

export const DEFAULT_PROVIDER = "openai";

/** web_fetch: the whole fetch, every redirect included, within this long (config `webFetch.timeoutMs`). */
export const DEFAULT_WEB_FETCH_TIMEOUT_MS = 30_000;

/** web_fetch: at most this much of a page's body is read (config `webFetch.maxBytes`). */
export const DEFAULT_WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

/** The agent variant when none is named (`--agent`, config `agent`). */
export const DEFAULT_AGENT = "default";

/** The model when neither the user nor the preset names one. */
export const DEFAULT_MODEL = "gpt-5-mini";

/** Steps a turn may take before it stops (`--max-steps`, `SHIRO_MAX_STEPS`, config `maxSteps`). */
export const DEFAULT_MAX_STEPS = 50;

/** Retries of a 429/5xx before a step fails (`SHIRO_MAX_RETRIES`, config `maxRetries`). */
export const DEFAULT_MAX_RETRIES = 3;

/**
 * Estimated tokens past which the request is pruned; also what the status line's context share is
 * of. Known internally as `pruneAtTokens`; to the user as config `compactAtTokens` and env
 * `SHIRO_COMPACT_AT`.
 */
export const DEFAULT_PRUNE_AT_TOKENS = 120_000;

/**
 * The context window assumed when neither the config, the server nor the built-in table knows the
 * model: what most hosted open models offer, and room for the default threshold and an answer.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * How long a provider may send nothing (no response headers, or no next piece of a streamed
 * response) before shiro gives up on the request (`SHIRO_IDLE_TIMEOUT_MS`, config `idleTimeoutMs`;
 * 0 turns it off). Five minutes is Bun's own idle limit, so the moment it fires is unchanged.
 * Generous on purpose: a reasoning model may think for minutes before its first word, and a local
 * model on a CPU may take as long to read a long prompt.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** First retry backoff; it doubles per attempt. Only tests change it (`SHIRO_RETRY_BASE_MS`). */
export const DEFAULT_RETRY_BASE_MS = 1_000;

/**
 * Commands run in the sandbox (lib/sandbox) unless `--no-sandbox` or config `"sandbox": "off"`;
 * the network stays on in it unless `--no-network` or config `"sandboxNetwork": false`.
 */
export const DEFAULT_SANDBOX = "on";
export const DEFAULT_SANDBOX_NETWORK = true;

/** The interactive loop asks before edits and commands unless `--mode` or config `approvalMode` says otherwise. */
export const DEFAULT_APPROVAL_MODE = "ask";

/** The terminal bell rings when an approval question is waiting (config `"bell": false` silences it). */
export const DEFAULT_BELL = true;

/** A terminal that lost focus gets a desktop notification when a turn ends or a question waits (config `notify`). */
export const DEFAULT_NOTIFY = "auto";

/**
 * What becomes of the notes the model suggests for project memory at a session's end (config
 * `memorySuggestions`): the loop asks about each; headless, "ask" means no suggestion call at all.
 */
export const MEMORY_SUGGESTION_MODES = ["off", "ask", "inbox"] as const;
export type MemorySuggestionMode = (typeof MEMORY_SUGGESTION_MODES)[number];
export const DEFAULT_MEMORY_SUGGESTIONS: MemorySuggestionMode = "ask";

/** Steps one subagent may take before it stops and reports (config `subagentMaxSteps`). */
export const DEFAULT_SUBAGENT_MAX_STEPS = 20;

/** Subagents that run at the same time; the rest wait their turn (config `maxParallelSubagents`). */
export const DEFAULT_MAX_PARALLEL_SUBAGENTS = 4;
