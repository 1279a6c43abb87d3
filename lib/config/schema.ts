import * as v from "valibot";
import { PRESET_NAMES } from "./presets.ts";
import { GuardConfig, PermissionConfig } from "./permission-schema.ts";

/** Extra paths for the sandbox: absolute, `~/…`, or relative to the workspace root. */
const SandboxPaths = v.array(
  v.pipe(v.string("must be a path"), v.nonEmpty("must not be empty")),
  'must be a list of paths such as ["~/.ssh", "../sibling"]',
);

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
  maxSteps: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"))),
  maxRetries: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more"))),
  compactAtTokens: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1000, "must be at least 1000"))),
  idleTimeoutMs: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(0, "must be 0 (never) or more"))),
  maxSpendUsd: v.optional(v.pipe(v.number("must be a number"), v.minValue(0, "must be 0 or more"))),
  sandbox: v.optional(v.picklist(["on", "off"], 'must be "on" or "off"')),
  sandboxNetwork: v.optional(v.boolean("must be true or false")),
  sandboxWritable: v.optional(SandboxPaths),
  sandboxReadable: v.optional(SandboxPaths),
  permission: v.optional(PermissionConfig),
  guard: v.optional(GuardConfig),
});
export type ConfigFile = v.InferOutput<typeof ConfigFile>;
