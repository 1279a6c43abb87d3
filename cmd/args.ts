import type { SessionChoice } from "../lib/agent/start.ts";
import { parseArgs, type ArgsDef } from "citty";
import { ShiroError } from "../lib/errors.ts";

/** The top-level flags. One table feeds parsing and the unknown-flag check. */
export const MAIN_ARGS = {
  prompt: { type: "string", alias: "p", description: "run headless with this prompt" },
  json: { type: "boolean", description: "headless: one JSON event per line on stdout" },
  continue: { type: "boolean", alias: "c", description: "continue the newest session in this directory" },
  resume: { type: "string", alias: "r", description: "resume a session by id or unique prefix" },
  "max-spend": { type: "string", description: "refuse to start a turn once the session has cost this many USD" },
  yolo: { type: "boolean", description: "allow tools that change files or run commands without asking" },
  model: { type: "string", alias: "m", description: "model id" },
  "base-url": { type: "string", description: "OpenAI-compatible base URL" },
  api: { type: "string", description: "wire format: responses (default) or chat" },
  provider: { type: "string", description: "named preset: openai, openrouter, groq, deepseek, ollama, lmstudio" },
  "max-steps": { type: "string", description: "step cap per turn (default 50)" },
  memory: { type: "boolean", default: true, description: "load and write project memory (--no-memory disables it)" },
  debug: { type: "boolean", description: "print stack traces" },
  version: { type: "boolean", alias: "v", description: "print the version" },
  help: { type: "boolean", alias: "h", description: "print help" },
} as const satisfies ArgsDef;

export type MainArgs = {
  prompt?: string;
  promptGiven: boolean;
  json: boolean;
  continue: boolean;
  resume?: string;
  maxSpendUsd?: number;
  yolo: boolean;
  model?: string;
  baseURL?: string;
  api?: string;
  provider?: string;
  maxSteps?: number;
  /** False with --no-memory. */
  memory: boolean;
  debug: boolean;
  version: boolean;
  help: boolean;
  positional: string[];
};

/** Parses argv (without the executable). Unknown flags are a usage error, never ignored. */
export function parseMainArgs(argv: string[], defs: ArgsDef = MAIN_ARGS): MainArgs {
  checkUnknownFlags(argv, defs);
  const raw = parseArgs(argv, defs) as Record<string, unknown> & { _: string[] };
  const str = (name: string): string | undefined => {
    const value = raw[name];
    if (value === undefined || value === false) return undefined;
    if (value === true || value === "") {
      if (name === "prompt") return "";
      throw new ShiroError("usage", `--${name} needs a value. Run shiro --help.`);
    }
    return String(value);
  };
  const maxStepsRaw = str("max-steps");
  const maxSteps = maxStepsRaw === undefined ? undefined : Number(maxStepsRaw);
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
    throw new ShiroError("usage", `--max-steps must be a whole number of at least 1, not "${maxStepsRaw}".`);
  }
  const maxSpendRaw = str("max-spend");
  const maxSpendUsd = maxSpendRaw === undefined ? undefined : Number(maxSpendRaw);
  if (maxSpendUsd !== undefined && (!Number.isFinite(maxSpendUsd) || maxSpendUsd < 0)) {
    throw new ShiroError("usage", `--max-spend must be an amount in USD such as 2.50, not "${maxSpendRaw}".`);
  }
  const resume = str("resume");
  if (resume !== undefined && raw.continue === true) throw new ShiroError("usage", "use either -c (newest session here) or -r <id>, not both.");
  return {
    prompt: str("prompt"),
    promptGiven: raw.prompt !== undefined,
    json: raw.json === true,
    continue: raw.continue === true,
    resume,
    maxSpendUsd,
    yolo: raw.yolo === true,
    model: str("model"),
    baseURL: str("base-url"),
    api: str("api"),
    provider: str("provider"),
    maxSteps,
    memory: raw.memory !== false,
    debug: raw.debug === true,
    version: raw.version === true,
    help: raw.help === true,
    positional: raw._.map(String),
  };
}

function checkUnknownFlags(argv: string[], defs: ArgsDef): void {
  const known = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    known.add(name);
    if (def.type === "boolean") known.add(`no-${name}`);
    const alias = "alias" in def ? def.alias : undefined;
    for (const a of Array.isArray(alias) ? alias : alias ? [alias] : []) known.add(a);
  }
  for (const token of argv) {
    if (token === "--") break;
    if (!token.startsWith("-") || token === "-") continue;
    if (token.startsWith("--")) {
      const name = token.slice(2).split("=")[0]!;
      if (!known.has(name)) throw new ShiroError("usage", `unknown option --${name}. Run shiro --help for the list.`);
    } else if (/^-[a-zA-Z]+$/.test(token)) {
      for (const letter of token.slice(1)) {
        if (!known.has(letter)) throw new ShiroError("usage", `unknown option -${letter}. Run shiro --help for the list.`);
      }
    }
  }
}

/** Which session the flags ask for: the newest here (-c), one by id (-r), or a new one. */
export function sessionChoice(args: MainArgs): SessionChoice {
  if (args.continue) return { type: "continue" };
  if (args.resume !== undefined) return { type: "resume", idOrPrefix: args.resume };
  return { type: "new" };
}
