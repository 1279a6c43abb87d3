import { existsSync, readFileSync, renameSync } from "node:fs";
import * as v from "valibot";
import { issueText } from "../text/schema-issue.ts";
import { parseJson } from "../text/json-parse.ts";

/** Longest reason quoted in a notice about a file that could not be read. */
const MAX_REASON_CHARS = 300;

export type ReadJsonResult<T> =
  | { status: "ok"; value: T }
  | { status: "missing" }
  /** The file could not be parsed or failed validation; it was moved to `movedTo`, never deleted. */
  | { status: "corrupt"; reason: string; movedTo: string | undefined };

/**
 * Reads a JSON file written for the user, defensively. A file that is not valid JSON (or not
 * valid UTF-8), or that fails the schema, is moved aside to `<path>.corrupt-<timestamp>` so
 * nothing is lost and a fresh file can start; the caller tells the user once. Never throws.
 */
export function readJsonFile<S extends v.GenericSchema>(path: string, schema: S, opts: { setAside?: boolean; now?: () => Date } = {}): ReadJsonResult<v.InferOutput<S>> {
  if (!existsSync(path)) return { status: "missing" };
  let reason: string;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(path));
    const json = parseJson(text);
    if (!json.ok) throw new Error(json.reason);
    const parsed = v.safeParse(schema, json.value);
    if (parsed.success) return { status: "ok", value: parsed.output };
    reason = issueText(parsed.issues[0]);
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  // The reason goes into a one-line notice; a schema message quotes the value received, which can be huge.
  reason = reason.replace(/\s+/g, " ").trim();
  if (reason.length > MAX_REASON_CHARS) reason = reason.slice(0, MAX_REASON_CHARS - 1) + "…";
  if (opts.setAside === false) return { status: "corrupt", reason, movedTo: undefined };
  return { status: "corrupt", reason, movedTo: setAside(path, opts.now?.() ?? new Date()) };
}

/** Moves a bad file to a timestamped name beside it. Returns the new path, or undefined if it could not move. */
export function setAside(path: string, now: Date = new Date()): string | undefined {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let target = `${path}.corrupt-${stamp}`;
  for (let i = 1; existsSync(target); i++) target = `${path}.corrupt-${stamp}-${i}`;
  try {
    renameSync(path, target);
    return target;
  } catch {
    return undefined;
  }
}
