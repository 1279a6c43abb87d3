import type { ModelMessage } from "ai";
import * as v from "valibot";
import { issueText } from "../text/schema-issue.ts";
import { SESSION_OUTCOMES } from "./outcome.ts";

/**
 * The session record, `$SHIRO_HOME/sessions/<id>.json`. There is deliberately no field that
 * could hold an API key or any other setting: a record is built from explicit fields only
 * (see newSessionRecord), and parsing strips anything unknown.
 */
export const SESSION_VERSION = 1;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const SessionId = v.pipe(v.string(), v.regex(UUID_PATTERN, "must be a lower-case UUID"));

const Timestamp = v.pipe(v.string(), v.isoTimestamp("must be an ISO timestamp"));
const TokenCount = v.pipe(v.number(), v.integer(), v.minValue(0));
const ROLES = new Set(["system", "user", "assistant", "tool"]);

/**
 * A message is checked for the shape shiro and the SDK rely on — a known role, content that is
 * text or a list of typed parts, and the ids and fields of the part types they read — and nothing
 * more: the record must load whatever the SDK produced, including part types this version has
 * never seen. Anything less (a `content` of null, a part without its type) would load and then
 * fail every turn of the session with an error nobody could act on.
 */
const MessageLike = v.custom<ModelMessage>(isMessage, (issue) => messageProblem(issue.input) ?? "must be a message");

/** MessageLike's check, remembered per message object (see checkedMessages). */
export function isMessage(value: unknown): boolean {
  if (typeof value === "object" && value !== null && checkedMessages.has(value)) return true;
  const ok = messageProblem(value) === undefined;
  if (ok) checkedMessages.add(value as object);
  return ok;
}

/**
 * Message objects already found well-formed. Every save validates the record, and messages are
 * never changed in place, so each one is checked once, not once per save.
 */
const checkedMessages = new WeakSet<object>();

function messageProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be a message object with a role of system, user, assistant or tool";
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (!ROLES.has(role as string)) return "must be a message object with a role of system, user, assistant or tool";
  if (typeof content === "string") return role === "tool" ? "is a tool message whose content is not a list of results" : undefined;
  if (role === "system") return "is a system message whose content is not text";
  if (!Array.isArray(content)) return "has content that is neither text nor a list of parts";
  for (let i = 0; i < content.length; i++) {
    const problem = partProblem(content[i]);
    if (problem) return `has a content part ${i} that ${problem}`;
  }
  return undefined;
}

function partProblem(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null || Array.isArray(part)) return "is not an object";
  const p = part as Record<string, unknown>;
  if (typeof p.type !== "string") return "has no type";
  const named = typeof p.toolCallId === "string" && typeof p.toolName === "string";
  switch (p.type) {
    case "text":
    case "reasoning":
      return typeof p.text === "string" ? undefined : "has no text";
    case "tool-call":
      return named ? undefined : "lacks its toolCallId or toolName";
    case "tool-result": {
      const output = p.output as { type?: unknown } | null | undefined;
      return named && typeof output === "object" && output !== null && typeof output.type === "string" ? undefined : "lacks its toolCallId, toolName or output";
    }
    default:
      return undefined; // a part type this version does not know is kept as it is
  }
}

const Version = v.literal(SESSION_VERSION, (issue) => `unsupported version ${JSON.stringify(issue.input)} (this shiro reads version ${SESSION_VERSION}; was it written by a newer one?)`);

/**
 * The session's goal (docs/goals.md): what it works toward across turns, its budget and how far
 * it got. Saved with the session so `-c`/`-r` carry it on; lib/agent/goal.ts works with it.
 */
export const GoalState = v.object({
  objective: v.pipe(v.string(), v.minLength(1)),
  /** The check command; absent: the model ends the goal with goal_done. */
  until: v.optional(v.string()),
  maxTurns: v.pipe(TokenCount, v.minValue(1)),
  /** Goal turns run so far (a Stop hook's continuation is not one). */
  turns: TokenCount,
  /** When the wall-clock limit ends the goal (ISO time); absent: no limit. */
  deadline: v.optional(Timestamp),
  status: v.picklist(["active", "paused", "met", "unmet"]),
  /** The check's last run. */
  check: v.optional(v.object({ exitCode: v.nullable(v.number()), tail: v.string() })),
  /** What goal_done said: what was done and how it was verified. */
  done: v.optional(v.object({ summary: v.string(), verification: v.string() })),
});
export type GoalState = v.InferOutput<typeof GoalState>;

/** The small fields at the top of the file: everything a listing shows. A new session field goes here. */
export const headerEntries = {
  version: Version,
  id: SessionId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  cwd: v.string(),
  provider: v.string(),
  model: v.string(),
  title: v.string(),
  inputTokens: TokenCount,
  outputTokens: TokenCount,
  /** Of inputTokens, those the provider served from its prompt cache (billed at the cache rate); absent: none reported. */
  cachedInputTokens: v.optional(TokenCount),
  /** Absent when any part of the session ran on an unpriced model: unknown is not $0. */
  costUsd: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** Set on a copy of another session (/fork, --fork, shiro sessions fork, or one another live shiro was holding): the parent's id. */
  forkedFrom: v.optional(SessionId),
  /** With forkedFrom: how many messages the parent had when the copy was made (the point it branched at). */
  forkedAt: v.optional(TokenCount),
  /** How its runs went, when its newest prompt got no answer (outcome.ts); absent: answered. Written at every save from the messages. */
  outcome: v.fallback(v.optional(v.picklist(SESSION_OUTCOMES)), undefined),
  /** The session's goal, while it has one (docs/goals.md). */
  // A goal that does not read (a newer shiro's, a damaged file) is dropped, never the session.
  goal: v.fallback(v.optional(GoalState), undefined),
};

/**
 * One subagent's run (the task tool), kept with the session so `shiro sessions show` can show it.
 * Never part of `messages`: the parent's history only holds the task call and its report.
 */
export const SubagentTranscript = v.object({
  /** The task call it ran for, and its place among that call's tasks. */
  callId: v.string(),
  index: TokenCount,
  kind: v.string(),
  description: v.string(),
  model: v.string(),
  status: v.string(),
  steps: TokenCount,
  inputTokens: TokenCount,
  outputTokens: TokenCount,
  /** Absent when its model has no price. */
  costUsd: v.optional(v.pipe(v.number(), v.minValue(0))),
  messages: v.array(MessageLike),
});
export type SubagentTranscript = v.InferOutput<typeof SubagentTranscript>;

export const SessionRecord = v.object({
  ...headerEntries,
  /**
   * The task list, validated entry by entry by lib/notebook/restore.ts, which also accepts a
   * missing or malformed list. A bad task list must not make the whole session unreadable.
   */
  notebook: v.optional(v.looseObject({ todos: v.optional(v.unknown()) }), {}),
  /** The subagents' own transcripts, in the order they ended. */
  subagents: v.optional(v.array(SubagentTranscript)),
  /** The full, unpruned history. */
  messages: v.array(MessageLike),
});
export type SessionRecord = v.InferOutput<typeof SessionRecord>;

/**
 * A record about to be saved, checked as SessionRecord checks it, with the messages looked at one
 * by one instead of through the schema: each was checked once already (isMessage), and a save
 * after every step should not build the schema's copy of the whole history. Undefined when it is
 * valid; else what is wrong, as describeIssue words it.
 */
export function recordProblem(record: SessionRecord): string | undefined {
  if (fieldsValid(record) && Array.isArray(record.messages) && record.messages.every(isMessage)) return undefined;
  // Something is wrong: the whole schema says what, in the words a load would use.
  const checked = v.safeParse(SessionRecord, record);
  return checked.success ? undefined : describeIssue(checked.issues);
}

/**
 * Whether every field but the messages passes its schema entry. An object schema checks each
 * entry on its own, so a field holding the same text or number found valid at the last save is
 * not checked again: most saves change only the time and the token counts. Objects (the task
 * list, the subagents) are always checked: they could have changed in place.
 */
function fieldsValid(record: SessionRecord): boolean {
  if (typeof record !== "object" || record === null) return false;
  const fields = record as unknown as Record<string, unknown>;
  for (const [key, schema] of FIELD_SCHEMAS) {
    const value = fields[key];
    const primitive = typeof value !== "object" || value === null;
    if (primitive && lastValid.has(key) && lastValid.get(key) === value) continue;
    if (!v.is(schema, value)) return false;
    if (primitive) lastValid.set(key, value);
  }
  return true;
}
const FIELD_SCHEMAS = Object.entries(SessionRecord.entries).filter(([key]) => key !== "messages");
/** Each text or number field's value at the last save that found it valid. */
const lastValid = new Map<string, unknown>();

/** What listings read: the header of a record plus its message count. */
export const SessionSummary = v.object({
  ...headerEntries,
  messageCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type SessionSummary = v.InferOutput<typeof SessionSummary>;

export function summarize(record: SessionRecord): SessionSummary {
  const { notebook: _notebook, subagents: _subagents, messages, ...header } = record;
  return { ...header, messageCount: messages.length };
}

/** Longest issue text quoted: valibot's messages include the value received, which can be megabytes. */
const MAX_ISSUE_CHARS = 300;

/** The first problem of a failed parse, as "field: message", on one line of at most MAX_ISSUE_CHARS. */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return "invalid";
  const text = issueText(issue).replace(/\s+/g, " ").trim();
  return text.length > MAX_ISSUE_CHARS ? text.slice(0, MAX_ISSUE_CHARS - 1) + "…" : text;
}
