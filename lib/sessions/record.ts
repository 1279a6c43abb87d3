import type { ModelMessage } from "ai";
import { SESSION_VERSION, type SessionRecord } from "./schema.ts";
import { titleFromMessages } from "./title.ts";

export type NewSessionFields = {
  id: string;
  now: Date;
  cwd: string;
  provider: string;
  model: string;
  messages?: readonly ModelMessage[];
  todos?: readonly unknown[];
  /** Absent for an unpriced model; 0 for a priced one with no usage yet. */
  costUsd?: number;
};

/**
 * A fresh record from explicit fields. Takes no settings object on purpose: whatever else a
 * caller has at hand (an API key above all) has no way in.
 */
export function newSessionRecord(fields: NewSessionFields): SessionRecord {
  const messages = [...(fields.messages ?? [])];
  const at = fields.now.toISOString();
  return {
    version: SESSION_VERSION,
    id: fields.id,
    createdAt: at,
    updatedAt: at,
    cwd: fields.cwd,
    provider: fields.provider,
    model: fields.model,
    title: titleFromMessages(messages),
    inputTokens: 0,
    outputTokens: 0,
    ...(fields.costUsd !== undefined ? { costUsd: fields.costUsd } : {}),
    notebook: { todos: [...(fields.todos ?? [])] },
    messages,
  };
}

/**
 * A copy of `source` under a new id (/fork, --fork, or another live process holds it): same messages,
 * task list, title, token counts and cost (the conversation's spend so far), `forkedFrom` set.
 */
export function forkRecord(source: SessionRecord, fields: { id: string; now: Date }): SessionRecord {
  const at = fields.now.toISOString();
  return {
    ...source,
    id: fields.id,
    createdAt: at,
    updatedAt: at,
    forkedFrom: source.id,
    forkedAt: source.messages.length,
    notebook: { ...source.notebook },
    messages: [...source.messages],
  };
}
