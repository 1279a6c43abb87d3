import type { SessionChoice } from "../lib/app/start.ts";
import { parseArgs } from "citty";
import { DEFAULT_MAX_STEPS } from "../lib/config/defaults.ts";
import { PRESET_NAMES } from "../lib/config/presets.ts";
import { THINKING_LEVELS, VARIANT_NAMES } from "../lib/config/variants.ts";
import { parseMaxSpendUsd, parseMaxSteps, type Flags } from "../lib/config/resolve.ts";
import { ShiroError } from "../lib/errors.ts";
import { editDistance } from "../lib/text/edit-distance.ts";

/** One flag: what citty parses, and what --help shows for it (cmd/help.ts renders the tables). */
export type FlagDef =
  | {
      type: "boolean";
      alias?: string;
      /** `true` makes the flag negatable: --help shows `--no-<name>` with `negativeDescription`. */
      default?: boolean;
      description: string;
      negativeDescription?: string;
    }
  | {
      type: "string";
      alias?: string;
      description: string;
      /** The value's name in --help: `--model <id>`. */
      valueHint: string;
      /** The flag may stand alone (`-p` with the prompt on stdin); it then reads as "". */
      valueOptional?: boolean;
    };

export type FlagTable = Record<string, FlagDef>;

/** What parseFlags returns for a table: a boolean or an optional string per flag, and the positional words. */
export type FlagValues<T extends FlagTable> = { [K in keyof T]: T[K] extends { type: "boolean" } ? boolean : string | undefined } & { _: string[] };

/**
 * The top-level flags: the one table that feeds parsing, the unknown-flag check and --help. The
 * sub-commands take their shared flags (model, provider, …) from here rather than declaring them
 * again, so a flag is described once.
 */
export const MAIN_ARGS = {
  prompt: { type: "string", alias: "p", valueHint: "text", valueOptional: true, description: "run headless with this prompt" },
  json: { type: "boolean", description: "headless: one JSON event per line on stdout (shiro help headless)" },
  continue: { type: "boolean", alias: "c", description: "continue the newest session in this directory" },
  fork: { type: "boolean", description: "with -c or -r: continue a copy of the session (a new id); the original stays as it was" },
  resume: { type: "string", alias: "r", valueHint: "id", valueOptional: true, description: "resume a session by id or unique prefix (no id: pick one of this directory's)" },
  yolo: { type: "boolean", description: "allow tools that change files or run commands without asking" },
  mode: { type: "string", valueHint: "mode", description: 'interactive approval mode: ask (default), edits, auto (config "approvalMode"; shiro help permissions)' },
  "max-spend": { type: "string", valueHint: "usd", description: 'refuse to start a turn once the session has cost this much (config "maxSpendUsd")' },
  model: { type: "string", alias: "m", valueHint: "id", description: 'model id (env SHIRO_MODEL, config "model")' },
  "base-url": { type: "string", valueHint: "url", description: "OpenAI-compatible endpoint (env SHIRO_BASE_URL / OPENAI_BASE_URL)" },
  api: { type: "string", valueHint: "wire", description: "responses (default) or chat, for servers that only speak Chat Completions" },
  provider: { type: "string", valueHint: "name", description: `preset: ${PRESET_NAMES.join(", ")}` },
  "max-steps": { type: "string", valueHint: "n", description: `step cap per turn (default ${DEFAULT_MAX_STEPS}; the agent's own)` },
  agent: { type: "string", valueHint: "name", description: `agent variant: ${VARIANT_NAMES.join(", ")} (config "agent"; shiro help agents)` },
  think: { type: "string", valueHint: "level", description: `thinking level: ${THINKING_LEVELS.join(", ")} (config "thinking")` },
  sandbox: {
    type: "boolean",
    default: true,
    description: "run commands in the sandbox (the default; shiro help permissions)",
    negativeDescription: 'run commands directly on this machine (config "sandbox": "off")',
  },
  network: {
    type: "boolean",
    default: true,
    description: "let sandboxed commands use the network (the default)",
    negativeDescription: 'cut sandboxed commands off the network (config "sandboxNetwork": false)',
  },
  memory: {
    type: "boolean",
    default: true,
    description: "load and write project memory (the default)",
    negativeDescription: "don't load or write project memory (e.g. in CI)",
  },
  hooks: {
    type: "boolean",
    default: true,
    description: "run your hooks (the default; docs/hooks.md)",
    negativeDescription: 'run no hooks, yours or the project\'s (config "disableAllHooks")',
  },
  goal: { type: "string", valueHint: "objective", description: "headless: keep working across turns until this goal is met (a check without it: the -p text is the goal; docs/goals.md)" },
  until: { type: "string", valueHint: "command", description: "headless: the goal's check, run after each turn; exit 0 means met" },
  "max-turns": { type: "string", valueHint: "n", description: "the goal's budget in turns (default 10); exit 5 when it runs out unmet" },
  "max-minutes": { type: "string", valueHint: "n", description: "the goal's wall-clock limit: no turn starts after it" },
  "trust-project-hooks": { type: "boolean", description: "run the hooks in this project's .shiro/settings.json without asking (headless never trusts them otherwise)" },
  debug: { type: "boolean", description: "show stack traces for errors" },
  version: { type: "boolean", alias: "v", description: "print the version" },
  help: { type: "boolean", alias: "h", description: "print this help" },
} as const satisfies FlagTable;

function pick<T extends FlagTable, K extends keyof T & string>(table: T, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(names.map((name) => [name, table[name]])) as Pick<T, K>;
}

/** Flags every sub-command takes. `--debug` is read by cmd/shiro.ts before any parsing. */
export const COMMON_FLAGS = pick(MAIN_ARGS, ["debug", "help"]);

/** Flags of the sub-commands that call the model (`shiro sessions compact`, `shiro memory compact`). */
export const MODEL_FLAGS = pick(MAIN_ARGS, ["model", "base-url", "api", "provider"]);

/** The flags that are settings: what flagsFrom reads. A table may hold any of them. */
export const SETTING_FLAGS = pick(MAIN_ARGS, ["model", "base-url", "api", "provider", "max-steps", "max-spend", "agent", "think", "sandbox", "network", "mode"]);

/**
 * The settings given on the command line, as resolveSettings takes them. The one place that maps
 * flag names to settings, for the main command and every sub-command alike. A number that breaks
 * its setting's rule is a usage error (the rules live in lib/config/resolve.ts).
 */
export function flagsFrom(values: Partial<FlagValues<typeof SETTING_FLAGS>>): Flags {
  const maxSteps = values["max-steps"];
  const maxSpend = values["max-spend"];
  return {
    model: values.model,
    baseURL: values["base-url"],
    api: values.api,
    provider: values.provider,
    maxSteps: maxSteps === undefined ? undefined : parseMaxSteps(maxSteps, "--max-steps"),
    maxSpendUsd: maxSpend === undefined ? undefined : parseMaxSpendUsd(maxSpend, "--max-spend"),
    agent: values.agent,
    thinking: values.think,
    // Only the --no-… forms override the config: these flags are on unless turned off.
    sandbox: values.sandbox === false ? false : undefined,
    network: values.network === false ? false : undefined,
    approvalMode: values.mode,
  };
}

/**
 * Parses argv against one table: the only flag parser, used by the main command and every
 * sub-command. Unknown flags are a usage error, never ignored; so is a string flag without its
 * value. `command` ("shiro sessions") names where to look in the message.
 */
export function parseFlags<T extends FlagTable>(argv: string[], defs: T, command = "shiro"): FlagValues<T> {
  argv = shortWithEquals(argv, defs);
  checkUnknownFlags(argv, defs, command);
  const raw = parseArgs(standAloneBeforeFlags(argv, defs), defs) as Record<string, unknown> & { _: unknown[] };
  const values: Record<string, unknown> = { _: raw._.map(String) };
  for (const [name, def] of Object.entries(defs)) {
    const value = raw[name];
    if (def.type === "boolean") values[name] = def.default === true ? value !== false : value === true;
    else if (value === undefined || value === false) values[name] = undefined;
    else if (value === true || value === "") {
      if (!def.valueOptional) throw new ShiroError("usage", `--${name} needs a value. Run ${command} --help.`);
      values[name] = "";
    } else values[name] = String(value);
  }
  return values as FlagValues<T>;
}

export type MainArgs = {
  prompt?: string;
  promptGiven: boolean;
  json: boolean;
  continue: boolean;
  resume?: string;
  /** --fork: continue a copy of the session -c or -r opens. */
  fork: boolean;
  /** `-r fix the bug`: the word after -r that was no id and went to the prompt ("fix"). */
  resumeWord?: string;
  /** The settings given as flags (model, base URL, step cap, spend ceiling, …), for loadRuntime. */
  flags: Flags;
  yolo: boolean;
  /** False with --no-memory. */
  memory: boolean;
  /** False with --no-hooks. */
  hooks: boolean;
  /** --trust-project-hooks. */
  trustProjectHooks: boolean;
  /** --goal, --until, --max-turns, --max-minutes: present when any was given (docs/goals.md). */
  goal?: GoalFlags;
  debug: boolean;
  version: boolean;
  help: boolean;
  positional: string[];
};

/** Parses argv (without the executable) for the main command. */
export function parseMainArgs(argv: string[]): MainArgs {
  const values = parseFlags(argv, MAIN_ARGS);
  const flags = flagsFrom(values);
  if (values.resume !== undefined && values.continue) throw new ShiroError("usage", "use either -c (newest session here) or -r <id>, not both.");
  if (values.fork && !values.continue && values.resume === undefined) throw new ShiroError("usage", "--fork copies the session -c or -r <id> opens: use it with one of them.");
  // `-r` takes the next word as an id only when it looks like one: `shiro -r fix the bug` opens the
  // picker and then sends "fix the bug", rather than looking for a session called "fix".
  let resume = values.resume;
  let positional = values._;
  let resumeWord: string | undefined;
  if (resume && !looksLikeSessionId(resume)) {
    positional = [resume, ...positional];
    resumeWord = resume;
    resume = "";
  }
  return {
    prompt: values.prompt,
    promptGiven: values.prompt !== undefined,
    json: values.json,
    continue: values.continue,
    resume,
    fork: values.fork,
    ...(resumeWord !== undefined ? { resumeWord } : {}),
    flags,
    yolo: values.yolo,
    memory: values.memory,
    hooks: values.hooks,
    trustProjectHooks: values["trust-project-hooks"],
    ...goalFlags(values),
    debug: values.debug,
    version: values.version,
    help: values.help,
    positional,
  };
}

/** A goal as the command line sets it: no objective means the -p text is the objective. */
export type GoalFlags = { objective?: string; until?: string; maxTurns?: number; minutes?: number };

/** The goal flags, checked: a bad number or an empty objective or check is a usage error. */
function goalFlags(values: FlagValues<typeof MAIN_ARGS>): { goal?: GoalFlags } {
  const { goal, until } = values;
  const turns = values["max-turns"];
  const minutes = values["max-minutes"];
  if (goal === undefined && until === undefined && turns === undefined && minutes === undefined) return {};
  if (goal !== undefined && !goal.trim()) throw new ShiroError("usage", '--goal needs an objective: --goal "make the tests pass".');
  if (until !== undefined && !until.trim()) throw new ShiroError("usage", '--until needs a command: --until "npm test".');
  const maxTurns = turns === undefined ? undefined : Number(turns);
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1 && maxTurns <= 1000)) throw new ShiroError("usage", `--max-turns must be a whole number from 1 to 1000 (got ${JSON.stringify(turns)}).`);
  const limit = minutes === undefined ? undefined : Number(minutes);
  if (limit !== undefined && !(Number.isFinite(limit) && limit > 0)) throw new ShiroError("usage", `--max-minutes must be a number of minutes above 0 (got ${JSON.stringify(minutes)}).`);
  return {
    goal: {
      ...(goal !== undefined ? { objective: goal.trim() } : {}),
      ...(until !== undefined ? { until: until.trim() } : {}),
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(limit !== undefined ? { minutes: limit } : {}),
    },
  };
}

/**
 * An id or a prefix of one as shiro prints them (hex digits and dashes): eight characters or more,
 * or four or more with a digit among them. "cafe" and "fix" are words; "01a230d3" is an id.
 */
export function looksLikeSessionId(word: string): boolean {
  if (!/^[0-9a-f-]+$/i.test(word)) return false;
  return word.length >= 8 || (word.length >= 4 && /\d/.test(word));
}

/**
 * A flag whose value is optional (`-p`, `-r`) stands alone when the next word is another of the
 * table's flags or `--`: `shiro -p --json "fix it"` is headless JSON with the prompt "fix it", not
 * the prompt "--json fix it" with --json lost. It is written `--name=` for the parser, which reads
 * that as the flag without its value.
 */
function standAloneBeforeFlags(argv: string[], defs: FlagTable): string[] {
  const optional = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (def.type !== "string" || !def.valueOptional) continue;
    optional.set(`--${name}`, name);
    if (def.alias) optional.set(`-${def.alias}`, name);
  }
  const out = [...argv];
  for (let i = 0; i < out.length - 1; i++) {
    const token = out[i]!;
    if (token === "--") break;
    const name = optional.get(token);
    if (name !== undefined && isFlag(out[i + 1]!, defs)) out[i] = `--${name}=`;
  }
  return out;
}

/**
 * `-m=gpt-5` is `--model=gpt-5`, as scripts often write it: the parser would take "=gpt-5" for the
 * value. Only a letter that is a string flag's alias is rewritten; others are left for the check
 * of unknown flags to name.
 */
function shortWithEquals(argv: string[], defs: FlagTable): string[] {
  const end = argv.indexOf("--");
  return argv.map((token, i) => {
    const match = (end < 0 || i < end) && /^-([a-zA-Z])=/.exec(token);
    if (!match) return token;
    const name = Object.keys(defs).find((n) => defs[n]!.alias === match[1] && defs[n]!.type === "string");
    return name === undefined ? token : `--${name}${token.slice(2)}`;
  });
}

/** `--`, or a word that names one of the table's flags as written (`--json`, `--model=x`, `-c`, `-cy`). */
function isFlag(token: string, defs: FlagTable): boolean {
  if (token === "--") return true;
  if (!token.startsWith("-") || token === "-") return false;
  if (!token.startsWith("--") && !/^-[a-zA-Z]+$/.test(token)) return false;
  return firstUnknownFlag([token], defs) === undefined;
}

function checkUnknownFlags(argv: string[], defs: FlagTable, command: string): void {
  const option = firstUnknownFlag(argv, defs);
  if (!option) return;
  const near = closestFlag(option, defs);
  throw new ShiroError("usage", `unknown option ${option}${command === "shiro" ? "" : ` for "${command}"`}.${near ? ` Did you mean ${near}?` : ""} Run ${command} --help for the list.`);
}

/** The long flag of `defs` a mistyped `--name` most likely meant (`--modle` → `--model`): at most 2 edits, and at most a third of the name. */
function closestFlag(option: string, defs: FlagTable): string | undefined {
  if (!option.startsWith("--")) return undefined;
  const typed = option.slice(2).toLowerCase();
  const cap = Math.min(2, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  const letters = (word: string) => [...word].sort().join("");
  for (const name of Object.keys(defs)) {
    // Two letters swapped (`--modle`) count as one slip; of two equally near, the one as long as typed wins (`--model`, not `--mode`).
    const swapped = name.length === typed.length && letters(name) === letters(typed) && editDistance(typed, name, 2) <= 2;
    const distance = (swapped ? 1 : editDistance(typed, name, cap)) + (name.length === typed.length ? 0 : 0.5);
    if (distance <= cap + 0.5 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best ? `--${best.name}` : undefined;
}

/** The first flag in argv (before any `--`) that `defs` does not know, as written (`--jsn`, `-z`). */
export function firstUnknownFlag(argv: readonly string[], defs: FlagTable): string | undefined {
  const known = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    known.add(name);
    if (def.type === "boolean") known.add(`no-${name}`);
    if (def.alias) known.add(def.alias);
  }
  for (const token of argv) {
    if (token === "--") break;
    if (!token.startsWith("-") || token === "-") continue;
    if (token.startsWith("--")) {
      const name = token.slice(2).split("=")[0]!;
      if (!known.has(name)) return `--${name}`;
    } else if (/^-[a-zA-Z]+$/.test(token)) {
      for (const letter of token.slice(1)) {
        if (!known.has(letter)) return `-${letter}`;
      }
    } else if (/^-[a-zA-Z]=/.test(token) && !known.has(token[1]!)) return token.slice(0, 2);
  }
  return undefined;
}

/**
 * Where a sub-command's name stands when flags come first (`shiro --base-url … doctor`): the index
 * in argv of the first positional word when it is one of `names`, else undefined (also when it
 * comes after `--`). Flag values are skipped as parseMainArgs reads them, `-r <word>` included.
 */
export function subcommandAfterFlags(argv: readonly string[], names: ReadonlySet<string>): number | undefined {
  const byAlias = new Map<string, string>(Object.entries(MAIN_ARGS).flatMap(([name, def]) => ("alias" in def && def.alias ? [[def.alias, name] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") return undefined;
    if (!token.startsWith("-") || token === "-") return names.has(token) ? i : undefined;
    if (token.includes("=")) continue;
    const name = token.startsWith("--") ? token.slice(2) : byAlias.get(token.slice(-1));
    const def = name === undefined ? undefined : (MAIN_ARGS as FlagTable)[name];
    if (def?.type !== "string") continue;
    const next = argv[i + 1];
    // `-r fix the bug`: the word is no id, so it is read as the first positional word.
    if (next !== undefined && !(name === "resume" && !looksLikeSessionId(next))) i++;
  }
  return undefined;
}

/** Which session the flags ask for: the newest here (-c), one by id (-r), or a new one. */
export function sessionChoice(args: MainArgs): SessionChoice {
  const fork = args.fork ? { fork: true } : {};
  if (args.continue) return { type: "continue", ...fork };
  if (args.resume === "") {
    // `shiro -r bogus -p …`: say why the word given was not taken, rather than that none was.
    const notId = args.resumeWord === undefined ? "" : ` ("${args.resumeWord}" is not one: ids are hex digits, as shiro sessions prints them)`;
    throw new ShiroError("usage", `-r needs a session id here${notId}; run shiro -r alone in a terminal to pick one, or shiro sessions to list them.`);
  }
  if (args.resume !== undefined) return { type: "resume", idOrPrefix: args.resume, ...fork };
  return { type: "new" };
}
