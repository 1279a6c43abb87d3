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
