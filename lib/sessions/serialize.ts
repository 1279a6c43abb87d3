import * as v from "valibot";
import { MAX_SESSION_NESTING, nestedDeeperThan } from "../fs/nesting.ts";
import { parseJson } from "../text/json-parse.ts";
import { describeIssue, headerEntries, SessionRecord, SessionSummary, summarize } from "./schema.ts";

/**
 * The file layout, valid JSON throughout:
 *
 *   {"version":1,"id":"…",…,"messageCount":8,     ,   ← line 1: the header, padded
 *   "messages":[…],"notebook":{…}                      ← line 2: the bulk
 *   }
 *
 * JSON.stringify never emits a raw newline (inside strings it is escaped), so the only raw
 * newlines are these structural ones. That lets a listing read the first line alone, and tell a
 * complete file from a truncated one by its last three bytes, without reading the messages. The
 * header is padded with spaces before its comma to a width fixed when the file is first written,
 * and the messages come before the small fields, so a save after a step can start from the
 * previous file: rewrite the header in place, and write only what follows the messages both
 * share (session-file.ts).
 */
export const SESSION_FILE_TAIL = "\n}\n";

/** A record's file in its pieces: the header line without its padding and comma, each message's JSON and its length in bytes (from message `from` on), and what follows the messages. */
export type SessionFileParts = { header: string; messages: string[]; bytes: number[]; rest: string };

/**
 * A record's pieces, from the schema's fields only, in the schema's order (the message count
 * after the title). Anything else on the object (it is typed, but JavaScript does not stop a
 * caller) never reaches the disk; a field added to the schema's header is written with no change here.
 */
export function sessionFileParts(record: SessionRecord, from = 0): SessionFileParts {
  const header: Record<string, unknown> = {};
  for (const key of Object.keys(headerEntries) as (keyof typeof headerEntries)[]) {
    if (record[key] !== undefined) header[key] = record[key];
    if (key === "title") header.messageCount = record.messages.length;
  }
  const notebook = JSON.stringify({ ...record.notebook, todos: record.notebook.todos ?? [] });
  const subagents = record.subagents && record.subagents.length > 0 ? `,"subagents":${JSON.stringify(record.subagents)}` : "";
  const messages: string[] = [];
  const bytes: number[] = [];
  for (let i = from; i < record.messages.length; i++) {
    const { json, size } = messageJson(record.messages[i]!);
    messages.push(json);
    bytes.push(size);
  }
  return { header: JSON.stringify(header).slice(0, -1), messages, bytes, rest: `,"notebook":${notebook}${subagents}${SESSION_FILE_TAIL}` };
}

/** Serialises a record in the layout above (a whole file). */
export function serializeSession(record: SessionRecord): string {
  const parts = sessionFileParts(record);
  return `${padHeader(parts.header, headerRoom(parts.header))}\n"messages":[${parts.messages.join(",")}]${parts.rest}`;
}

/** The header's room in bytes: its size and some to grow in (the counts, the cost, the time), so most saves rewrite it in place. */
export function headerRoom(header: string): number {
  const size = Buffer.byteLength(header);
  return size + 64 + Math.ceil(size / 8);
}

/** The header line padded with spaces before its comma to `width` bytes (and the comma): still JSON, the same width at every save. */
export function padHeader(header: string, width: number): string {
  return `${header}${" ".repeat(Math.max(0, width - Buffer.byteLength(header)))},`;
}

/**
 * Each message's JSON and its size in bytes, kept per message object: a session is saved after
 * every step, and re-encoding the whole history each time made saving grow with the session.
 * Messages are never changed in place (a session appends new objects or replaces the list), so
 * an object's JSON stays true. The same bytes as JSON.stringify of the message.
 */
const encoded = new WeakMap<object, { json: string; size: number }>();
function messageJson(message: SessionRecord["messages"][number]): { json: string; size: number } {
  let known = encoded.get(message);
  if (known === undefined) {
    const json = JSON.stringify(message);
    known = { json, size: Buffer.byteLength(json) };
    encoded.set(message, known);
  }
  return known;
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
