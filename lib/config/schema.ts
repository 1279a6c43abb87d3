import * as v from "valibot";
import { PRESET_NAMES, type PresetName } from "./presets.ts";
import { THINKING_LEVELS, VARIANT_NAMES } from "./variants.ts";
import { AlwaysAllowConfig, ApprovalModeSchema, GuardConfig, PermissionConfig, ProjectsConfig, ReadOnlyCommandsConfig } from "./permission-schema.ts";
import { McpServers } from "./mcp-schema.ts";
import { HooksConfig } from "./hooks-schema.ts";
import { MEMORY_SUGGESTION_MODES } from "./defaults.ts";

const tokens = (min: number) => v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(min, `must be at least ${min}`));

/** What the user knows about one model: its context window, the output limit shiro should ask for, and whether it takes images. */
export const ModelLimitsConfig = v.strictObject({
  contextWindow: v.optional(tokens(1000)),
  maxOutputTokens: v.optional(tokens(1)),
  images: v.optional(v.boolean("must be true or false")),
});
export type ModelLimitsConfig = v.InferOutput<typeof ModelLimitsConfig>;

/** `models: { "<model id>": { contextWindow, maxOutputTokens, images } }`, ids as the server spells them. */
const ModelsConfig = v.record(v.pipe(v.string(), v.nonEmpty("must not be empty")), ModelLimitsConfig);

/** Settings that apply only while a preset is in use: the same model id can run with another window elsewhere. */
const PresetConfig = v.strictObject({ models: v.optional(ModelsConfig) });
const PresetsConfig = v.strictObject(
  Object.fromEntries(PRESET_NAMES.map((name) => [name, v.optional(PresetConfig)])) as Record<PresetName, v.OptionalSchema<typeof PresetConfig, undefined>>,
);

/** Extra paths for the sandbox: absolute, `~/…`, or relative to the workspace root. */
const SandboxPaths = v.array(
  v.pipe(v.string("must be a path"), v.nonEmpty("must not be empty")),
  'must be a list of paths such as ["~/.ssh", "../sibling"]',
);

/** `webFetch`: hosts web_fetch may reach on private addresses, its caps, and whether read-only agents get it. */
const WebFetchConfig = v.strictObject({
  allowHosts: v.optional(
    v.array(v.pipe(v.string("must be a host"), v.regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+)(:\d+)?$/, 'must be a host or host:port such as "localhost:8123"')), 'must be a list of hosts such as ["localhost:8123"]'),
  ),
  timeoutMs: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(100, "must be at least 100"))),
  maxBytes: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1024, "must be at least 1024"))),
  readOnlyAgents: v.optional(v.boolean("must be true or false")),
});

/**
 * The config file, `$SHIRO_HOME/config.json`. Strict: an unknown field is an error, so a typo
 * is reported instead of silently ignored.
 */
export const ConfigFile = v.strictObject({
  $schema: v.optional(v.string()),
  provider: v.optional(v.picklist(PRESET_NAMES, `must be one of ${PRESET_NAMES.join(", ")}`)),
  model: v.optional(v.pipe(v.string(), v.nonEmpty("must not be empty"))),
  baseURL: v.optional(v.pipe(v.string(), v.url("must be a URL such as http://localhost:11434/v1"))),
  apiKey: v.optional(v.pipe(v.string(), v.nonEmpty("must not be empty"))),
  api: v.optional(v.picklist(["responses", "chat"], 'must be "responses" or "chat"')),
  client: v.optional(v.picklist(["openai", "compatible"], 'must be "openai" or "compatible"')),
  store: v.optional(v.boolean("must be true or false")),
  agent: v.optional(v.picklist(VARIANT_NAMES, `must be one of ${VARIANT_NAMES.join(", ")}`)),
  thinking: v.optional(v.picklist(THINKING_LEVELS, `must be one of ${THINKING_LEVELS.join(", ")}`)),
  maxSteps: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  maxRetries: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more"))),
  compactAtTokens: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1000, "must be at least 1000"))),
  idleTimeoutMs: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(0, "must be 0 (never) or more"))),
  maxSpendUsd: v.optional(v.pipe(v.number("must be a number"), v.minValue(0, "must be 0 or more"))),
  models: v.optional(ModelsConfig),
  subagentModel: v.optional(v.pipe(v.string(), v.nonEmpty("must not be empty"))),
  subagentMaxSteps: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  maxParallelSubagents: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  presets: v.optional(PresetsConfig),
  sandbox: v.optional(v.picklist(["on", "off"], 'must be "on" or "off"')),
  sandboxNetwork: v.optional(v.boolean("must be true or false")),
  sandboxWritable: v.optional(SandboxPaths),
  sandboxReadable: v.optional(SandboxPaths),
  sandboxHide: v.optional(SandboxPaths),
  permission: v.optional(PermissionConfig),
  alwaysAllow: v.optional(AlwaysAllowConfig),
  guard: v.optional(GuardConfig),
  approvalMode: v.optional(ApprovalModeSchema),
  bell: v.optional(v.boolean("must be true or false")),
  /** "auto", "bell", "off", or a command that gets the event as JSON on stdin (docs/interactive.md#being-told). */
  notify: v.optional(v.pipe(v.string('must be "auto", "bell", "off" or a command'), v.trim(), v.nonEmpty('must be "auto", "bell", "off" or a command'))),
  readOnlyCommands: v.optional(ReadOnlyCommandsConfig),
  /** Notes the model suggests for project memory at a session's end: "off", "ask" (the loop asks; headless, no call) or "inbox" (docs/project-memory.md). */
  memorySuggestions: v.optional(v.picklist(MEMORY_SUGGESTION_MODES, `must be one of ${MEMORY_SUGGESTION_MODES.map((m) => `"${m}"`).join(", ")}`)),
  projects: v.optional(ProjectsConfig),
  webFetch: v.optional(WebFetchConfig),
  /** MCP servers (lib/config/mcp-schema.ts); read by lib/mcp, not part of Settings. */
  mcpServers: v.optional(McpServers),
  /** Use a project's `.mcp.json` without asking, headless too. Off: the user is asked once per file content. */
  trustProjectMcp: v.optional(v.boolean("must be true or false")),
  /** Lifecycle hooks in Claude Code's format (docs/hooks.md); read by lib/hooks, not part of Settings. */
  hooks: v.optional(HooksConfig),
  /** Turns every hook off, the user's and the project's (as `--no-hooks`). */
  disableAllHooks: v.optional(v.boolean("must be true or false")),
  /** Run a project's hooks (`.shiro/settings.json`) without asking, headless too. Off: the user is asked once per file content. */
  trustProjectHooks: v.optional(v.boolean("must be true or false")),
  /** Consecutive times a Stop hook may keep a turn going before the turn ends anyway (default 5). */
  maxStopHookBlocks: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
});
export type ConfigFile = v.InferOutput<typeof ConfigFile>;
