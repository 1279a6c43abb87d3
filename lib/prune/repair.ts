import type { ModelMessage, ToolModelMessage } from "ai";
import { isReasoningPart, itemIdOf, encryptedReasoningOf, partsOf, withoutItemId, withParts, type AnyPart } from "./item-ids.ts";
import { memoByIdentity } from "./memo.ts";
import { validateHistory } from "./validate.ts";

// History repairs. Each one returns a new array (the input itself when nothing needed changing),
// never mutates a message, and never removes a user message or a message's text.

/** What the model reads for a call that never got a result (abort, crash, step cap). */
export const INTERRUPTED_RESULT = "interrupted before it finished; its effects are unknown. Check the current state before relying on it.";

/**
 * Gives every tool call that has no result a synthetic error result, placed after the assistant
 * message that made the call and the results its other calls got (so results keep the calls'
 * order when the first finished and a later one was cut short), so the next request never fails
 * with a missing tool result. Idempotent; never mutates the input, and returns it itself when
 * nothing dangles. The synthetic result answers the original call id, so it is stable across
 * repairs and prompt caches stay valid.
 */
export function closeDanglingToolCalls(messages: readonly ModelMessage[]): ModelMessage[] {
  // Results normally sit in the tool messages right after their call; the set of every result in
  // the history is built only when one is not there.
  let answered: Set<string> | undefined;
  const answeredAnywhere = (id: string) => {
    if (!answered) {
      answered = new Set();
      for (const m of messages) if (m.role === "tool") for (const part of m.content) if (part.type === "tool-result") answered.add(part.toolCallId);
    }
    return answered.has(id);
  };
  let out: ModelMessage[] | undefined; // copied only once something is added
  /** Synthetic results waiting for the end of the tool messages after their call's message. */
  let waiting: { after: number; results: ToolModelMessage } | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out?.push(m);
    if (waiting?.after === i) {
      out!.push(waiting.results);
      waiting = undefined;
    }
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    const isDangling = (part: (typeof m.content)[number]) =>
      part.type === "tool-call" && !part.providerExecuted && !answeredNextTo(messages, i, part.toolCallId) && !answeredAnywhere(part.toolCallId);
    if (!m.content.some(isDangling)) continue;
    const dangling = m.content.filter(isDangling);
    out ??= messages.slice(0, i + 1) as ModelMessage[];
    let after = i;
    while (messages[after + 1]?.role === "tool") after++;
    const results: ToolModelMessage = {
      role: "tool",
      content: dangling.map((part) => ({
        type: "tool-result" as const,
        toolCallId: (part as { toolCallId: string }).toolCallId,
        toolName: (part as { toolName: string }).toolName,
        output: { type: "error-text" as const, value: INTERRUPTED_RESULT },
      })),
    };
    if (after === i) out.push(results);
    else waiting = { after, results };
  }
  return out ?? (messages as ModelMessage[]);
}

/** A result for the call in the tool messages right after message `i`. */
function answeredNextTo(messages: readonly ModelMessage[], i: number, callId: string): boolean {
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j]!;
    if (m.role !== "tool") return false;
    for (const part of m.content) if (part.type === "tool-result" && part.toolCallId === callId) return true;
  }
  return false;
}

/**
 * One assistant message is one provider response, so it is the unit a stored reference depends
 * on: a message or function_call item refers to the reasoning item of the same response, under a
 * different id. When an assistant message has no reasoning part left that carries an item id, the
 * provider item ids are stripped from its other parts, so they are sent inline (full content, no
 * dependency on anything stored) instead of as `item_reference`s the provider would refuse
 * ("Item 'msg_…' of type 'message' was provided without its required 'reasoning' item").
 * Reasoning with nothing after it in its message is removed: the provider refuses a reasoning
 * item without the output it produced. The content is never dropped, only the ids: a model that
 * cannot see what it already did repeats it. Idempotent.
 */
export function detachOrphanedItems(messages: readonly ModelMessage[]): ModelMessage[] {
  return mapMessages(messages, detachMessage);
}

const detachMessage = memoByIdentity((m: ModelMessage): ModelMessage | undefined => {
  if (m.role !== "assistant" || typeof m.content === "string") return m;
  const parts = partsOf(m);
  let kept = withoutTrailingReasoning(parts);
  const referenced = kept.some((p) => isReasoningPart(p) && itemIdOf(p) !== undefined);
  if (!referenced) kept = kept.map((p) => (isReasoningPart(p) ? p : withoutItemId(p)));
  return sameParts(parts, kept) ? m : withParts(m, kept);
});

/** Reasoning parts followed by no output part in the same message are dropped. */
function withoutTrailingReasoning(parts: readonly AnyPart[]): readonly AnyPart[] {
  let lastOutput = -1;
  for (let i = 0; i < parts.length; i++) if (!isReasoningPart(parts[i]!)) lastOutput = i;
  if (lastOutput === parts.length - 1) return parts;
  return parts.filter((p, i) => i < lastOutput || !isReasoningPart(p));
}

/**
 * Drops tool results whose call does not appear earlier in the history ("No tool call found for
 * function call output"): pruning or a damaged session file can leave one behind. Tool messages
 * left empty are removed. The reverse is left alone on purpose: a call still waiting for its
 * result is what a suspended approval looks like, and dropping it would break `/resume`. Idempotent.
 */
export function dropOrphanedResults(messages: readonly ModelMessage[]): ModelMessage[] {
  // A result normally answers the latest assistant message; the set of every earlier call is built
  // only when one does not.
  let latest: readonly AnyPart[] = [];
  let earlier: Set<string> | undefined;
  const callsBefore = (i: number) => {
    earlier = new Set();
    for (let j = 0; j < i; j++) for (const p of partsOf(messages[j]!)) if (p.type === "tool-call") earlier.add(p.toolCallId as string);
    return earlier;
  };
  let out: ModelMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    let next: ModelMessage | undefined = m;
    if (m.role === "assistant") {
      latest = partsOf(m);
      if (earlier) for (const p of latest) if (p.type === "tool-call") earlier.add(p.toolCallId as string);
    } else if (m.role === "tool") {
      const parts = partsOf(m);
      const answers = (p: AnyPart) => p.type !== "tool-result" || answersLatest(latest, p.toolCallId as string) || (earlier ?? callsBefore(i)).has(p.toolCallId as string);
      if (!parts.every(answers)) next = withParts(m, parts.filter(answers));
    }
    if (next !== m && !out) out = messages.slice(0, i) as ModelMessage[];
    if (out && next) out.push(next);
  }
  return out ?? (messages as ModelMessage[]);
}

function answersLatest(latest: readonly AnyPart[], callId: string): boolean {
  for (const c of latest) if (c.type === "tool-call" && c.toolCallId === callId) return true;
  return false;
}

/**
 * Removes every provider item id (under any provider name, from every part), so the whole history
 * is sent inline and refers to nothing stored on the provider's side. Other provider options
 * (encrypted reasoning, phase) are kept. A reasoning part left with neither an id nor encrypted
 * content cannot be sent at all (the SDK skips it with a warning): use `inlineHistory` for a whole
 * history that still has reasoning. Idempotent.
 */
export function stripItemIds(messages: readonly ModelMessage[]): ModelMessage[] {
  return mapMessages(messages, stripMessageIds);
}

const stripMessageIds = memoByIdentity((m: ModelMessage): ModelMessage => {
  if (m.role !== "assistant" && m.role !== "tool") return m;
  const parts = partsOf(m);
  const next = parts.map(withoutItemId);
  return sameParts(parts, next) ? m : (withParts(m, next) ?? m);
});

export type InlineOptions = {
  /**
   * What happens to reasoning. `"drop"` (default) removes it: reasoning replayed without its stored
   * item is the one thing whose acceptance by the Responses API is disputed (an `encrypted_content`
   * reasoning item without its `id` is accepted by some accounts and reported refused by others),
   * and this rewrite is the last attempt of the turn, so it sends only what is always valid.
   * `"inline-encrypted"` keeps reasoning that carries encrypted content, sent inline without its id.
   */
  reasoning?: "drop" | "inline-encrypted";
};

/**
 * Rewrites a history so that nothing in it depends on items stored by the provider: no item ids
 * anywhere, reasoning removed (or, by option, kept only where its encrypted content can be sent
 * inline). This is the repair for `404 Item with id '…' not found.`: a resumed session, an expired
 * store or a store=false proxy. Text, tool calls and tool results are all kept; the reasoning
 * that goes was already shown to the user and exists only on the provider's side. Idempotent.
 */
export function inlineHistory(messages: readonly ModelMessage[], options: InlineOptions = {}): ModelMessage[] {
  const inlineMessage = options.reasoning === "inline-encrypted" ? inlineKeepingEncrypted : inlineDroppingReasoning;
  return mapMessages(messages, inlineMessage);
}

function inlineWith(keepReasoning: (part: AnyPart) => boolean) {
  return memoByIdentity((m: ModelMessage): ModelMessage | undefined => {
    if (m.role !== "assistant" && m.role !== "tool") return m;
    const parts = partsOf(m);
    const kept = withoutTrailingReasoning(parts.filter((p) => !isReasoningPart(p) || keepReasoning(p)).map(withoutItemId));
    return sameParts(parts, kept) ? m : withParts(m, kept);
  });
}
const inlineDroppingReasoning = inlineWith(() => false);
const inlineKeepingEncrypted = inlineWith((p) => p.type === "reasoning" && encryptedReasoningOf(p) !== undefined);

/**
 * Makes any history satisfy `validateHistory`, for `shiro sessions repair` and `shiro doctor`.
 * Returns the input itself when it is already valid. Otherwise: results are moved right after the
 * message that made their call (first result per call wins, results with no call are dropped),
 * later duplicates of a call id are dropped, a copy of an earlier message is sent inline, calls with
 * no result get the synthetic interrupted result, and orphaned item references are detached. Never removes user messages or text.
 */
export function repairHistory(messages: readonly ModelMessage[]): ModelMessage[] {
  if (validateHistory(messages).length === 0) return messages as ModelMessage[];
  const results = new Map<string, AnyPart>();
  for (const m of messages) {
    if (m.role !== "tool") continue;
    for (const p of partsOf(m)) if (p.type === "tool-result" && !results.has(p.toolCallId as string)) results.set(p.toolCallId as string, p);
  }
  const seenCalls = new Set<string>();
  const seenItems = new Set<string>();
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const rest = partsOf(m).filter((p) => p.type !== "tool-result");
      const kept = rest.length > 0 ? withParts(m, rest) : undefined;
      if (kept) out.push(kept);
      continue;
    }
    if (m.role !== "assistant") {
      out.push(m);
      continue;
    }
    const parts = partsOf(m);
    const kept = parts.filter((p) => {
      if (p.type !== "tool-call") return true;
      const id = p.toolCallId as string;
      if (seenCalls.has(id)) return false;
      seenCalls.add(id);
      return true;
    });
    let message = sameParts(parts, kept) ? m : withParts(m, kept);
    // A copy of a message already in the history refers to the same stored items: send it inline.
    if (message && partsOf(message).some((p) => seenItems.has(itemIdOf(p) ?? ""))) message = inlineDroppingReasoning(message);
    if (!message) continue;
    for (const p of partsOf(message)) if (itemIdOf(p)) seenItems.add(itemIdOf(p)!);
    out.push(message);
    const answers = kept.filter((p) => p.type === "tool-call" && !p.providerExecuted).flatMap((p) => results.get(p.toolCallId as string) ?? []);
    if (answers.length > 0) out.push({ role: "tool", content: answers } as unknown as ModelMessage);
  }
  return detachOrphanedItems(closeDanglingToolCalls(out));
}

/** Maps each message; `undefined` removes it. Returns the input itself when every message is unchanged. */
function mapMessages(messages: readonly ModelMessage[], fn: (m: ModelMessage) => ModelMessage | undefined): ModelMessage[] {
  let out: ModelMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const next = fn(m);
    if (next !== m && !out) out = messages.slice(0, i) as ModelMessage[];
    if (out && next) out.push(next);
  }
  return out ?? (messages as ModelMessage[]);
}

function sameParts(a: readonly AnyPart[], b: readonly AnyPart[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}
