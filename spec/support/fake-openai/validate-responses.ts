// History validation for POST /v1/responses, modelled on what the real API rejects (ERRORS.md):
// orphan outputs, unanswered calls, unknown / forgotten / unstored item ids, duplicate items,
// message or function_call items separated from their reasoning item, and reasoning without a follower.
import {
  duplicateItem,
  itemNotFound,
  missingReasoning,
  noToolCallFound,
  noToolOutputFound,
  previousResponseNotFound,
  reasoningWithoutFollower,
  Rejection,
} from "./errors.ts";
import { entryFor, type ContextEntry, type ItemStore } from "./items.ts";

export type ResponsesValidation = { ok: true; context: ContextEntry[] } | { ok: false; rejection: Rejection };

/** Resolve the request (previous_response_id chain + input) into context entries and check them.
 *  On success the context is what a response to this request extends and stores. */
export function validateResponsesRequest(body: any, items: ItemStore): ResponsesValidation {
  const context: ContextEntry[] = [];
  if (typeof body.previous_response_id === "string") {
    const previous = items.response(body.previous_response_id);
    if (!previous) return { ok: false, rejection: previousResponseNotFound(body.previous_response_id) };
    for (const e of previous.context) context.push({ ...e, where: "previous response", fromThisRequest: false });
  }

  if (typeof body.input === "string") {
    context.push({ kind: "message", role: "user", where: "input", fromThisRequest: true });
  } else if (Array.isArray(body.input)) {
    for (let i = 0; i < body.input.length; i++) {
      const resolved = resolveItem(body.input[i], `input[${i}]`, items);
      if (resolved instanceof Rejection) return { ok: false, rejection: resolved };
      context.push(resolved);
    }
  }

  const rejection = checkContext(context);
  return rejection ? { ok: false, rejection } : { ok: true, context };
}

/** One input item → context entry. References and inline items that carry an id must name a live item. */
function resolveItem(raw: any, where: string, items: ItemStore): ContextEntry | Rejection {
  if (raw == null || typeof raw !== "object") return { kind: "other", where, fromThisRequest: true };
  const type: string | undefined = raw.type ?? (raw.role ? "message" : undefined);

  if (type === "item_reference" || typeof raw.id === "string") {
    const id = String(raw.id);
    const found = items.lookup(id);
    if ("missing" in found) return itemNotFound(id, where, found.missing);
    // A bare reference (or reasoning sent by id without its encrypted content) needs the server-side copy.
    const needsStoredCopy = type === "item_reference" || (type === "reasoning" && raw.encrypted_content == null);
    if (needsStoredCopy && !found.item.stored) return itemNotFound(id, where, "not-stored");
    const entry = entryFor(found.item, where, true);
    if (type === "function_call" && typeof raw.call_id === "string") entry.callId = raw.call_id;
    if (type === "message" && typeof raw.role === "string") entry.role = raw.role;
    return entry;
  }

  switch (type) {
    case "message":
      return { kind: "message", role: raw.role, where, fromThisRequest: true };
    case "reasoning":
      return { kind: "reasoning", where, fromThisRequest: true };
    case "function_call":
      return { kind: "function_call", callId: raw.call_id, where, fromThisRequest: true };
    case "function_call_output":
      return { kind: "function_call_output", callId: raw.call_id, where, fromThisRequest: true };
    default:
      return { kind: "other", where, fromThisRequest: true };
  }
}

/** Items that can legitimately follow a reasoning item: the assistant output it produced (or more reasoning).
 *  Unknown item types are given the benefit of the doubt. */
function canFollowReasoning(next: ContextEntry | undefined): boolean {
  if (!next) return false;
  if (next.kind === "message") return next.role === "assistant";
  return next.kind !== "function_call_output";
}

/** Walk the resolved conversation in order. Only entries of this request are blamed; chained context from
 *  previous_response_id still counts (its calls must be answered here, its reasoning satisfies references). */
function checkContext(context: ContextEntry[]): Rejection | undefined {
  const seenIds = new Set<string>();
  const seenReasoning = new Set<string>();
  const calls = new Set<string>();
  const unanswered = new Map<string, string>(); // call_id → where the call is

  for (let k = 0; k < context.length; k++) {
    const e = context[k]!;
    if (e.id) {
      if (seenIds.has(e.id) && e.fromThisRequest) return duplicateItem(e.id, e.where);
      seenIds.add(e.id);
    }
    switch (e.kind) {
      case "reasoning":
        if (e.id) seenReasoning.add(e.id);
        if (e.fromThisRequest && !canFollowReasoning(context[k + 1]))
          return reasoningWithoutFollower(e.id ?? "(inline reasoning)", e.where);
        break;
      case "message":
      case "function_call":
        if (e.fromThisRequest && e.id && e.reasoningId && !seenReasoning.has(e.reasoningId))
          return missingReasoning(e.id, e.kind, e.reasoningId, e.where);
        if (e.kind === "function_call" && e.callId) {
          calls.add(e.callId);
          unanswered.set(e.callId, e.where);
        }
        break;
      case "function_call_output":
        if (!e.callId || !calls.has(e.callId)) return noToolCallFound(String(e.callId), e.where);
        unanswered.delete(e.callId);
        break;
    }
  }

  const [first] = unanswered;
  if (first) return noToolOutputFound(first[0], first[1]);
  return undefined;
}
