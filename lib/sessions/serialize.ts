import * as v from "valibot";
import { MAX_SESSION_NESTING, nestedDeeperThan } from "../fs/nesting.ts";
import { parseJson } from "../text/json-parse.ts";
import { describeIssue, headerEntries, SessionRecord, SessionSummary, summarize } from "./schema.ts";

/**
 * The file layout, valid JSON throughout:
 *
 *   {"version":1,"id":"…",…,"messageCount":8,          ← line 1: the header
 *   "notebook":{…},"messages":[…]                       ← line 2: the bulk
 *   }
 *
 * JSON.stringify never emits a raw newline (inside strings it is escaped), so the only raw
 * newlines are these structural ones. That lets a listing read the first line alone, and tell a
 * complete file from a truncated one by its last three bytes, without reading the messages.
 */
export const SESSION_FILE_TAIL = "\n}\n";

/**
 * Serialises a record from the schema's fields only, in the schema's order (the message count
 * after the title). Anything else on the object (it is typed, but JavaScript does not stop a
 * caller) never reaches the disk; a field added to the schema's header is written with no change here.
 */
export function serializeSession(record: SessionRecord): string {
  const header: Record<string, unknown> = {};
  for (const key of Object.keys(headerEntries) as (keyof typeof headerEntries)[]) {
    if (record[key] !== undefined) header[key] = record[key];
    if (key === "title") header.messageCount = record.messages.length;
  }
  const head = JSON.stringify(header);
  const notebook = JSON.stringify({ ...record.notebook, todos: record.notebook.todos ?? [] });
  const subagents = record.subagents && record.subagents.length > 0 ? `"subagents":${JSON.stringify(record.subagents)},` : "";
  return `${head.slice(0, -1)},\n"notebook":${notebook},${subagents}"messages":[${record.messages.map(messageJson).join(",")}]${SESSION_FILE_TAIL}`;
}

/**
 * Each message's JSON, kept per message object: a session is saved after every tool step, and
 * re-encoding the whole history each time made saving grow with the session. Messages are never
 * changed in place (a session appends new objects or replaces the list), so an object's JSON
 * stays true. The same bytes as JSON.stringify of the whole array.
 */
const encoded = new WeakMap<object, string>();
function messageJson(message: SessionRecord["messages"][number]): string {
  let json = encoded.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    encoded.set(message, json);
  }
  return json;
}

export type ParsedSession = { ok: true; record: SessionRecord } | { ok: false; reason: string };

/**
 * Parses and validates a whole file. Accepts any JSON layout (a file edited by hand is fine).
 * Refuses a structure nested too deep to be written back or sent (nesting.ts). Never throws.
 */
export function parseSession(text: string): ParsedSession {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, reason: oneLine(json.reason) };
  const raw = json.value;
  if (nestedDeeperThan(raw, MAX_SESSION_NESTING)) return { ok: false, reason: `nested more than ${MAX_SESSION_NESTING} levels deep, which no conversation is` };
  const parsed = v.safeParse(SessionRecord, raw);
  return parsed.success ? { ok: true, record: parsed.output } : { ok: false, reason: oneLine(describeIssue(parsed.issues)) };
}

/**
 * Parses the first line of a file in the layout above into a summary, or undefined when the
 * line is not such a header (another layout, or damage): the caller then reads the whole file.
 */
export function parseHeaderLine(line: string): SessionSummary | undefined {
  if (!line.startsWith("{") || !line.endsWith(",")) return undefined;
  try {
    const parsed = v.safeParse(SessionSummary, JSON.parse(line.slice(0, -1) + "}"));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

export { summarize };

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
