import type { ModelMessage } from "ai";
import * as v from "valibot";

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
 * A message is checked only for being an object with a known role: the record must load
 * whatever the SDK produced, including part types this version has never seen.
 */
const MessageLike = v.custom<ModelMessage>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value) && ROLES.has((value as { role?: unknown }).role as string),
  "must be a message object with a role of system, user, assistant or tool",
);

const Version = v.literal(SESSION_VERSION, (issue) => `unsupported version ${JSON.stringify(issue.input)} (this shiro reads version ${SESSION_VERSION}; was it written by a newer one?)`);

/** The small fields at the top of the file: everything a listing shows. */
const headerEntries = {
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
  /** Absent when any part of the session ran on an unpriced model: unknown is not $0. */
  costUsd: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** Set on a session copied from one that another live shiro was holding. */
  forkedFrom: v.optional(SessionId),
};

export const SessionRecord = v.object({
  ...headerEntries,
  /**
   * The task list, validated entry by entry by lib/notebook/restore.ts, which also accepts a
   * missing or malformed list. A bad task list must not make the whole session unreadable.
   */
  notebook: v.optional(v.looseObject({ todos: v.optional(v.unknown()) }), {}),
  /** The full, unpruned history. */
  messages: v.array(MessageLike),
});
export type SessionRecord = v.InferOutput<typeof SessionRecord>;

/** What listings read: the header of a record plus its message count. */
export const SessionSummary = v.object({
  ...headerEntries,
  messageCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type SessionSummary = v.InferOutput<typeof SessionSummary>;

export function summarize(record: SessionRecord): SessionSummary {
  const { notebook: _notebook, messages, ...header } = record;
  return { ...header, messageCount: messages.length };
}

/** The first problem of a failed parse, as "field: message". */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return "invalid";
  const where = issue.path?.map((p) => String(p.key)).join(".");
  return where ? `${where}: ${issue.message}` : issue.message;
}
