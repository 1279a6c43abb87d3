import { configPath, loadConfigFile, shiroHome } from "../lib/config/load.ts";
import { lacksModel, traceSettings, type SettingSource, type SettingSources, type Settings } from "../lib/config/resolve.ts";
import { isLocalURL, keyVariables } from "../lib/config/presets.ts";
import type { ConfigFile } from "../lib/config/schema.ts";
import { isObjectField, isSettableKey, keptEntries, mergeConfigValue, parseConfigValue, parseEntryValue, SETTABLE_KEYS, splitConfigKey } from "../lib/config/set-value.ts";
import { updateConfigFile } from "../lib/config/update-file.ts";
import { ShiroError } from "../lib/errors.ts";
import { closeNames } from "../lib/text/close-matches.ts";
import { settingTable } from "../lib/text/setting-table.ts";
import { wrapLine } from "../lib/text/wrap.ts";
import { COMMON_FLAGS, flagsFrom, parseFlags, SETTING_FLAGS, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";

type Env = Record<string, string | undefined>;

const USAGE = "usage: shiro config [show|list] | get <key> | set <key> <value> | unset <key> | path";

const SUB_USAGE: Record<string, string> = {
  show: "usage: shiro config [show] [flags]   the settings in effect and where each came from",
  set: "usage: shiro config set <key>[.<entry>] <value>   write one field of the user config file (an object is merged into the one there)",
  unset: "usage: shiro config unset <key>[.<entry>]   remove one field, or one entry of it, from the user config file",
  path: "usage: shiro config path   where the user config file is",
  get: "usage: shiro config get <key>   the value in effect for one setting, alone on a line (for scripts)",
};

/** `shiro config`'s flags: the setting flags, so `shiro config -m x` shows what a run with them would use. */
export const CONFIG_FLAGS = { ...SETTING_FLAGS, ...COMMON_FLAGS } as const satisfies FlagTable;

/** `shiro config …`: the settings in effect, and changes to the user's config file. Returns the exit code. */
export async function runConfigCommand(argv: string[], env: Env): Promise<number> {
  // Flags go anywhere, as with npm config and git: `shiro config --model q get model` is `get model --model q`.
  const parsed = parseFlags(argv, CONFIG_FLAGS, "shiro config");
  const [first, ...rest] = parsed._;
  const args = { ...parsed, _: rest };
  // `list` is `show` by the word other tools use for it.
  const sub = first === undefined || first === "list" ? "show" : first;
  if (args.help) {
    process.stdout.write(commandHelp(first === undefined ? USAGE : (SUB_USAGE[sub] ?? USAGE), CONFIG_FLAGS));
    return 0;
  }
  if (sub === "set" || sub === "unset" || sub === "path") refuseSettingFlags(sub, args);
  const path = configPath(shiroHome(env));
  switch (sub) {
    case "show": {
      if (args._.length > 0) throw new ShiroError("usage", `shiro config takes no words after it ("${args._[0]}"). ${USAGE}`);
      const config = await loadConfigFile(path);
      const { settings, sources } = traceSettings(flagsFrom(args), env, config, { forRun: false });
      // A terminal's own width; 100 columns into a pipe or a file.
      const width = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 100;
      process.stdout.write(showConfig(settings, sources, config, path, width));
      return 0;
    }
    case "path":
      process.stdout.write(path + "\n");
      return 0;
    case "get": {
      const [key, ...extra] = args._;
      if (key === undefined || extra.length > 0) throw new ShiroError("usage", "shiro config get needs one key, e.g. shiro config get model.");
      const shown = (SHOWN as Record<string, Shown | undefined>)[key];
      if (shown === undefined || shown === "skip") {
        const close = closeKeys(key);
        throw new ShiroError("usage", `unknown config key "${key}". ${close.length > 0 ? `Did you mean ${close.join(", ")}?` : "Run shiro config to see them all."}`);
      }
      const config = await loadConfigFile(path);
      const { settings, sources } = traceSettings(flagsFrom(args), env, config, { forRun: false });
      // A section (permission rules, per-model limits, …) is the file's own JSON; never a key's value.
      // No model, for a provider without a default, is "not set": a run would refuse, not use OpenAI's.
      const value = shown === "section" ? JSON.stringify((config as Record<string, unknown>)[key] ?? {}) : key === "model" && lacksModel(settings.provider, sources) ? "not set" : shown(settings, config);
      process.stdout.write(value + "\n");
      return 0;
    }
    case "set": {
      const [key, ...words] = args._;
      if (key === undefined || words.length === 0) throw new ShiroError("usage", `shiro config set needs a key and a value, e.g. shiro config set model gpt-5-mini.`);
      const { field, entry } = splitKey(key);
      const raw = words.join(" ");
      if (entry !== undefined) {
        // One entry of an object field, replaced whole: `set models.gpt-4.1 '{"contextWindow": 1000000}'`.
        const value = parseEntryValue(raw);
        await updateConfigFile(path, (config) => {
          const record = config as Record<string, unknown>;
          return { ...config, [field]: { ...(record[field] as Record<string, unknown> | undefined), [entry]: value } };
        });
        process.stdout.write(`saved ${field} entry "${entry}" = ${JSON.stringify(value)} in ${path}\n`);
        return 0;
      }
      const value = parseConfigValue(field, raw);
      let kept: string[][] = [];
      await updateConfigFile(path, (config) => {
        const existing = (config as Record<string, unknown>)[field];
        const given = typeof value === "object" && value !== null && !Array.isArray(value);
        if (!isObjectField(field) || existing === undefined || !given) return { ...config, [field]: value };
        // An object field: what is given is merged in, so the entries it does not name stay.
        kept = keptEntries(existing, value);
        return { ...config, [field]: mergeConfigValue(existing, value) };
      });
      const shown = field === "apiKey" ? "(the key)" : JSON.stringify(value);
      // `unset` removes one entry of a field, not one deeper down: its hint only when every kept entry is one.
      const hint = kept.every((keys) => keys.length === 1) ? `; shiro config unset ${field}.<name> removes one` : "";
      const merged = kept.length > 0 ? ` (merged: ${kept.map((keys) => keys.join(".")).join(", ")} kept${hint})` : "";
      process.stdout.write(`saved ${field} = ${shown} in ${path}${merged}\n`);
      return 0;
    }
    case "unset": {
      const [key, ...extra] = args._;
      if (key === undefined || extra.length > 0) throw new ShiroError("usage", `shiro config unset needs one key, e.g. shiro config unset model.`);
      const { field, entry } = splitKey(key);
      let had = false;
      await updateConfigFile(path, (config) => {
        const record = config as Record<string, unknown>;
        if (entry === undefined) {
          had = field in record;
          delete record[field];
          return config;
        }
        const map = record[field] as Record<string, unknown> | undefined;
        had = map !== undefined && entry in map;
        if (map) delete map[entry];
        if (map && Object.keys(map).length === 0) delete record[field];
        return config;
      });
      process.stdout.write(had ? `removed ${key} from ${path}\n` : `${key} was not set in ${path}; nothing changed\n`);
      return 0;
    }
    default:
      throw new ShiroError("usage", `unknown config command "${sub}". ${USAGE}`);
  }
}

/** The config key each setting flag stands for, for the hint when one is given to `set`. */
const FLAG_KEYS: Record<keyof typeof SETTING_FLAGS, string> = {
  model: "model",
  "base-url": "baseURL",
  api: "api",
  provider: "provider",
  "max-steps": "maxSteps",
  "max-spend": "maxSpendUsd",
  agent: "agent",
  think: "thinking",
  sandbox: "sandbox",
  network: "sandboxNetwork",
  mode: "approvalMode",
};

/**
 * `set`, `unset` and `path` read no setting flags: one given (before the word or after it) would
 * otherwise be dropped without a word, so `shiro config --model q set maxSteps 5` is refused
 * with the command that does what the flag looks meant to do.
 */
function refuseSettingFlags(sub: "set" | "unset" | "path", args: Record<string, unknown>): void {
  const given = (Object.keys(FLAG_KEYS) as (keyof typeof FLAG_KEYS)[]).find((name) => (SETTING_FLAGS[name].type === "boolean" ? args[name] === false : args[name] !== undefined));
  if (given === undefined) return;
  const flag = SETTING_FLAGS[given].type === "boolean" ? `--no-${given}` : `--${given}`;
  const key = FLAG_KEYS[given];
  const next =
    sub === "set"
      ? `To save that setting: shiro config set ${key} <value>.`
      : sub === "unset"
        ? `To remove that setting from the file: shiro config unset ${key}.`
        : "Run shiro config path alone.";
  const what = sub === "path" ? "only prints where the config file is" : "changes only the config file";
  throw new ShiroError("usage", `shiro config ${sub} ${what}, so ${flag} does not apply to it. ${next}`);
}

/**
 * A key as typed, checked: a field, or `field.entry` for one entry of an object field (the dot
 * split off only when the part before it is such a field, so an unknown key is still refused).
 */
function splitKey(key: string): { field: string; entry?: string } {
  const split = splitConfigKey(key);
  if (split.entry !== undefined && isSettableKey(split.field)) {
    if (!isObjectField(split.field)) throw new ShiroError("usage", `config "${split.field}" has no entries; use shiro config set ${split.field} <value>. Nothing was saved.`);
    return split;
  }
  checkKey(key);
  return { field: key };
}

/** An unknown key is refused with the keys it most looks like, before the file is read. */
function checkKey(key: string): void {
  if (isSettableKey(key)) return;
  const close = closeKeys(key);
  const hint = close.length > 0 ? `Did you mean ${close.join(", ")}?` : "Run shiro config to see them all.";
  throw new ShiroError("usage", `unknown config key "${key}". ${hint} Nothing was saved.`);
}

/** Keys a typo most likely meant: containing it, or within a few edits of it; best first, at most three. */
function closeKeys(wanted: string): string[] {
  return closeNames(wanted, SETTABLE_KEYS);
}

/**
 * How each field of the config file is shown, by its name: a line with the value as shiro uses it,
 * or "section" for the maps shown apart below (permission rules, per-model limits, …), or "skip".
 * Typed over every ConfigFile key, so a field added to the schema fails the typecheck until it
 * has a line here; spec/e2e/config-command.test.ts checks each key is in the output.
 */
type Shown = ((settings: Settings, config: ConfigFile) => string) | "section" | "skip";

const json = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
const optional = (value: number | string | undefined, unset: string) => (value === undefined ? unset : String(value));

/** Every field of the file, and `contextWindow`, a setting only the environment gives. */
const SHOWN: { [K in keyof ConfigFile]-?: Shown } & { contextWindow: Shown } = {
  // Editor metadata (a JSON schema's address), no setting.
  $schema: "skip",
  provider: (s) => s.provider,
  model: (s) => s.model,
  baseURL: (s) => s.baseURL,
  apiKey: (s) => (s.apiKey ? "set" : "not set"),
  api: (s) => s.api,
  client: (s) => s.client,
  store: (s) => json(s.store),
  agent: (s) => s.agent,
  thinking: (s) => s.thinking,
  maxSteps: (s) => json(s.maxSteps),
  maxRetries: (s) => json(s.maxRetries),
  compactAtTokens: (s) => json(s.pruneAtTokens),
  contextWindow: (s) => optional(s.contextWindow, "not set"),
  idleTimeoutMs: (s) => json(s.idleTimeoutMs),
  maxSpendUsd: (s) => optional(s.maxSpendUsd, "not set"),
  subagentModel: (s) => optional(s.subagents.model, "not set"),
  subagentMaxSteps: (s) => json(s.subagents.maxSteps),
  maxParallelSubagents: (s) => json(s.subagents.maxParallel),
  sandbox: (s) => s.sandbox.mode,
  sandboxNetwork: (s) => json(s.sandbox.network),
  sandboxWritable: (s) => json(s.sandbox.writable),
  sandboxReadable: (s) => json(s.sandbox.readable),
  sandboxHide: (s) => json(s.sandbox.hide),
  approvalMode: (s) => s.approvalMode,
  bell: (s) => json(s.bell),
  notify: (s) => s.notify,
  memorySuggestions: (s) => s.memorySuggestions,
  webFetch: (s) => json(s.webFetch),
  // Names only: a server's headers and environment hold tokens.
  mcpServers: (_s, c) => {
    const names = Object.keys(c.mcpServers ?? {});
    return names.length > 0 ? names.join(", ") : "none";
  },
  trustProjectMcp: (_s, c) => json(c.trustProjectMcp ?? false),
  // The events with hooks and how many commands each has; /hooks lists the commands.
  hooks: (_s, c) => {
    const events = Object.entries(c.hooks ?? {}).map(([event, groups]) => `${event} (${groups.reduce((n, g) => n + g.hooks.length, 0)})`);
    return events.length > 0 ? events.join(", ") : "none";
  },
  disableAllHooks: (_s, c) => json(c.disableAllHooks ?? false),
  trustProjectHooks: (_s, c) => json(c.trustProjectHooks ?? false),
  maxStopHookBlocks: (_s, c) => String(c.maxStopHookBlocks ?? 5),
  models: "section",
  presets: "section",
  permission: "section",
  guard: "section",
  readOnlyCommands: "section",
  projects: "section",
  alwaysAllow: "section",
};

/** The shown settings in the schema's order, each by its config-file name, with the value as shiro uses it. */
function settingRows(settings: Settings, config: ConfigFile): [string, string][] {
  return Object.entries(SHOWN).flatMap(([key, shown]) => (typeof shown === "function" ? [[key, shown(settings, config)] as [string, string]] : []));
}

/** Where a value came from, in words: `flag --model`, `env SHIRO_MODEL`, `config file`, `preset groq`, `agent deep`, `default`. */
export function describeSource(source: SettingSource | undefined): string {
  switch (source?.kind) {
    case "flag":
      return `flag ${source.name}`;
    case "env":
      return `env ${source.name}`;
    case "file":
      return "config file";
    case "preset":
      return `preset ${source.name}`;
    case "agent":
      return `agent ${source.name}`;
    case "default":
      return "default";
    case "unset":
    case undefined:
      return "not set";
    default:
      return source satisfies never;
  }
}

/** The last column of a setting's line: where its value came from, or what being unset means. */
function origin(key: string, settings: Settings, sources: SettingSources, config: ConfigFile): string {
  // Fields read straight from the file (no flag or variable sets them): the file, or the default.
  const source = sources[key] ?? (key in config ? { kind: "file" as const, name: key } : key === "subagentModel" ? { kind: "unset" as const } : { kind: "default" as const });
  if (source?.kind !== "unset") return source?.kind === "default" ? "(default)" : `(from ${describeSource(source)})`;
  if (key === "apiKey") return isLocalURL(settings.baseURL) ? "(not needed for a local server)" : `(needed for ${settings.baseURL}: set ${keyVariables(settings.provider, settings.client)})`;
  if (key === "contextWindow") return "(asked from the server; shiro doctor shows it)";
  if (key === "maxSpendUsd") return "(no spending limit)";
  if (key === "subagentModel") return "(subagents use the session's model)";
  return "(not set)";
}

/**
 * `shiro config`: one line per setting with its value and where it came from (the key itself
 * never: only whether it is set and from where), then what only the file holds: per-model
 * limits, per-preset settings, permission rules and the guard's exceptions.
 */
function showConfig(settings: Settings, sources: SettingSources, config: ConfigFile, path: string, width: number): string {
  const noModel = lacksModel(settings.provider, sources);
  const rows = settingRows(settings, config).map(([key, value]) =>
    key === "model" && noModel
      ? ([key, "not set", `(${settings.provider} has no default: --model <id> or shiro config set model <id>)`] as const)
      : ([key, value, origin(key, settings, sources, config)] as const),
  );
  const lines = [`Settings in effect (flag > environment > config file > preset > default). Config file: ${path}`];
  const table = settingTable(rows, width);
  const fileOnly: [string, unknown][] = [
    ["models", config.models],
    ["presets", config.presets],
    ["guard", config.guard],
    ["readOnlyCommands", config.readOnlyCommands],
  ];
  const permission = Object.entries(config.permission ?? {});
  lines.push("", permission.length > 0 ? "Permission rules (config file; the last matching rule wins):" : "Permission rules: none in the config file (shiro's defaults apply; shiro help permissions).");
  for (const [tool, rule] of permission) lines.push(`  ${tool}: ${JSON.stringify(rule)}`);
  // Rules saved for one project ("always … this project" at an approval), read after the ones above.
  for (const [root, project] of Object.entries(config.projects ?? {})) {
    const rules = Object.entries(project.permission ?? {});
    if (rules.length === 0) continue;
    lines.push(`Permission rules for the project ${root} (after the ones above):`);
    for (const [tool, rule] of rules) lines.push(`  ${tool}: ${JSON.stringify(rule)}`);
  }
  // Saved "always" answers: grants, checked after the rules above (docs/permissions.md).
  const saved: [string, Record<string, string[]> | undefined][] = [
    ["Saved \"always\" answers (alwaysAllow; after every deny and ask rule):", config.alwaysAllow],
    ...Object.entries(config.projects ?? {}).map(([root, project]): [string, Record<string, string[]> | undefined] => [`Saved "always" answers for the project ${root}:`, project.alwaysAllow]),
  ];
  for (const [title, grants] of saved) {
    const entries = Object.entries(grants ?? {}).filter(([, patterns]) => patterns.length > 0);
    if (entries.length === 0) continue;
    lines.push(title);
    for (const [tool, patterns] of entries) for (const pattern of patterns) lines.push(`  ${tool}: ${pattern === "*" ? "every call" : pattern}`);
  }
  for (const [key, value] of fileOnly) if (value !== undefined) lines.push(`${key} (config file): ${JSON.stringify(value)}`);
  // The table is laid out to the width already; every other line wraps under its own indent.
  const [title, ...rest] = lines;
  const heading = Bun.stringWidth(title!) <= width ? [title!] : [...wrapLine(title!.slice(0, title!.indexOf(" Config file: ")), width), ...wrapLine(`Config file: ${path}`, width)];
  return [...heading, ...table, ...rest.flatMap((line) => wrapLine(line, width, { hang: 4 }))].join("\n") + "\n";
}
