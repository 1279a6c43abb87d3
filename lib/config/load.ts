import * as v from "valibot";
import { join } from "node:path";
import { homedir } from "node:os";
import { ShiroError } from "../errors.ts";
import { resolveSettings, type Flags, type Settings } from "./resolve.ts";
import { ConfigFile } from "./schema.ts";
import { parseJson } from "../text/json-parse.ts";
import { fieldPathText, issueWords, listWhereObject } from "./field-path.ts";

/** The user's home directory: `$HOME`, else the system's. The one place it is worked out (a run keeps it as Environment.userHome). */
export function userHomeOf(env: Record<string, string | undefined>): string {
  return env.HOME || homedir();
}

/** Where shiro keeps everything it writes. `SHIRO_HOME` relocates it (tests always set it). */
export function shiroHome(env: Record<string, string | undefined>): string {
  return env.SHIRO_HOME || join(userHomeOf(env), ".shiro-neko");
}

export function configPath(home: string): string {
  return join(home, "config.json");
}

/**
 * Reads and validates the config file. A missing file is an empty config. A file that is not
 * JSON, or a field that is wrong, is a `config` error naming the file, the field and the fix.
 * The file is never rewritten: it belongs to the user.
 */
export async function loadConfigFile(path: string): Promise<ConfigFile> {
  const file = Bun.file(path);
  if (!(await file.exists())) return {};
  let text: string;
  try {
    // Strict: a byte that is not UTF-8 would otherwise become "\uFFFD" silently, inside a model name or a rule.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.bytes());
  } catch {
    throw new ShiroError("config", `config file ${path} is not valid UTF-8. Fix it or move it aside.`);
  }
  const json = parseJson(text);
  if (!json.ok) throw new ShiroError("config", `config file ${path} is ${oneLine(json.reason)}. Fix it or move it aside.`);
  const raw = json.value;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ShiroError("config", `config file ${path} must hold a JSON object such as {"model": "gpt-5-mini"}, not ${kindOf(raw)}. Fix it or move it aside.`);
  }
  const list = listWhereObject(ConfigFile, raw);
  if (list) throw new ShiroError("config", `config file ${path}: field ${fieldPathText(list)} must be an object, not a list. See shiro help configuration.`);
  const parsed = v.safeParse(ConfigFile, raw);
  if (parsed.success) return parsed.output;
  throw new ShiroError("config", issueLine(path, parsed.issues[0]));
}

function issueLine(path: string, issue: v.BaseIssue<unknown>): string {
  const what = oneLine(issueWords(ConfigFile, issue));
  return `config file ${path}: ${what}${what.endsWith("?") ? "" : "."} See shiro help configuration.`;
}

/**
 * Every problem of the config file, one line each, as loadConfigFile words the first (`shiro
 * doctor` lists them all, so one run shows everything to fix). Empty when the file loads.
 */
export async function configFileProblems(path: string): Promise<string[]> {
  try {
    await loadConfigFile(path);
    return [];
  } catch (error) {
    if (!(error instanceof ShiroError)) throw error;
    // Only a file that is JSON of the right shape can have several wrong fields.
    const json = parseJson(await Bun.file(path).text().catch(() => ""));
    if (!json.ok || typeof json.value !== "object" || json.value === null) return [error.message];
    const parsed = v.safeParse(ConfigFile, json.value);
    if (parsed.success) return [error.message];
    const lines = [...new Set(parsed.issues.map((issue) => issueLine(path, issue)))];
    return lines.includes(error.message) ? lines : [error.message, ...lines];
  }
}

/**
 * The one path from the command line to settings: reads `$SHIRO_HOME/config.json` and applies
 * precedence. Every mode and every sub-command that reaches a model builds its settings here, so
 * a new setting is honoured everywhere once `resolveSettings` knows it.
 */
export async function loadSettings(flags: Flags, env: Record<string, string | undefined>): Promise<{ home: string; config: ConfigFile; settings: Settings }> {
  const home = shiroHome(env);
  const file = configPath(home);
  const config = await loadConfigFile(file);
  return { home, config, settings: resolveSettings(flags, env, config, file) };
}

/** A JSON value's kind in words, for a file that holds the wrong one. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : `${String(value)}`;
}

/** Longest part of a config message quoted from the file: a wrong value can be a megabyte with newlines in it. */
const MAX_QUOTED_CHARS = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_QUOTED_CHARS ? flat.slice(0, MAX_QUOTED_CHARS - 1) + "…" : flat;
}
