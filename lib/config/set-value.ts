import { ShiroError } from "../errors.ts";
import { ConfigFile } from "./schema.ts";

/** The fields `shiro config set` can write: every field of the config file but `$schema`. */
export const SETTABLE_KEYS: readonly string[] = Object.keys(ConfigFile.entries).filter((key) => key !== "$schema");

/** The base type of a config field's schema (its `optional` and `pipe` taken off). */
function fieldType(key: string): string {
  const entry = (ConfigFile.entries as Record<string, { wrapped?: { type: string } }>)[key];
  return entry?.wrapped?.type ?? "unknown";
}

/**
 * A value typed on the command line, read for the field it goes into: a number for a number
 * field, `true`/`false` for a boolean, the word itself for a string or a choice, JSON for a list
 * or an object (`'["~/.ssh"]'`, `'{"bash": "ask"}'`). A word that is not of the field's type is
 * returned as it was typed, so the schema's own message rejects it (`must be a number`); only
 * JSON that does not parse is refused here.
 */
export function parseConfigValue(key: string, raw: string): unknown {
  switch (fieldType(key)) {
    case "number": {
      const n = raw.trim() === "" ? Number.NaN : Number(raw);
      return Number.isFinite(n) ? n : raw;
    }
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : raw;
    case "string":
    case "picklist":
      return raw;
    default:
      try {
        return JSON.parse(raw);
      } catch {
        throw new ShiroError("usage", `config "${key}" takes JSON here, such as ${key.startsWith("sandbox") ? `'["~/.ssh"]'` : `'{"bash": "ask"}'`}; "${raw}" is not JSON. Nothing was saved.`);
      }
  }
}

/** Whether `key` is a field of the config file (`$schema` aside). */
export function isSettableKey(key: string): boolean {
  return SETTABLE_KEYS.includes(key);
}

/** Whether a field holds an object (`permission`, `models`, `projects`, `mcpServers`, …): what `set` merges into. */
export function isObjectField(key: string): boolean {
  return !["number", "boolean", "string", "picklist", "array", "unknown"].includes(fieldType(key));
}

/**
 * `field.entry` (`models.gpt-4.1`, `projects./work/app`): the field, and the entry of it, split at
 * the first dot only, since model ids and paths have dots of their own. No dot: the field alone.
 */
export function splitConfigKey(key: string): { field: string; entry?: string } {
  const dot = key.indexOf(".");
  return dot <= 0 || dot === key.length - 1 ? { field: key } : { field: key.slice(0, dot), entry: key.slice(dot + 1) };
}

/** An entry's value typed on the command line: JSON when it parses (`'{"contextWindow": 8000}'`), else the word (`ask`). */
export function parseEntryValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What `shiro config set <object field> '{…}'` stores: the given object merged into the one in
 * the file, key by key at every depth, so the entries it does not name are kept. A list or any
 * other value in it replaces what was there. Keys already in the file keep their place (the order
 * of permission rules matters); new keys come after them. Pure.
 */
export function mergeConfigValue(existing: unknown, given: unknown): unknown {
  if (!isPlainObject(existing) || !isPlainObject(given)) return given;
  const merged: Record<string, unknown> = { ...existing };
  for (const [key, value] of Object.entries(given)) merged[key] = key in existing ? mergeConfigValue(existing[key], value) : value;
  return merged;
}

/**
 * The entries of `existing` that merging `given` into it keeps as they were, each as its list of
 * keys, at the depth where `given` stops naming them: merging `{"bash": {"git push*": "deny"}}`
 * into `{"bash": {"git status*": "allow"}, "write_file": "ask"}` keeps `["bash", "git status*"]`
 * and `["write_file"]`. What `shiro config set` reports, so a merge never reads as a replacement. Pure.
 */
export function keptEntries(existing: unknown, given: unknown): string[][] {
  if (!isPlainObject(existing) || !isPlainObject(given)) return [];
  return Object.keys(existing).flatMap((key) =>
    key in given ? keptEntries(existing[key], given[key]).map((inner) => [key, ...inner]) : [[key]],
  );
}
