import type { ModelMessage } from "ai";
import { encryptedReasoningOf, isReasoningPart, itemIdOf, partsOf } from "./item-ids.ts";

export type HistoryViolationCode =
  /** A tool result whose call is nowhere in the history ("No tool call found for function call output"). */
  | "orphan-result"
  /** A tool result that comes before its call. */
  | "result-before-call"
  /** A tool result not in the tool messages right after its call's assistant message (Chat Completions refuses it). */
  | "result-not-adjacent"
  /** A second result for the same call. */
  | "duplicate-result"
  /** A tool call with no result ("No tool output found for function call"). */
  | "missing-result"
  /** Two tool calls with the same id. */
  | "duplicate-call-id"
  /** A text or tool-call part with a provider item id in a message with no reasoning item id: sent as a reference without its reasoning item. */
  | "reference-without-reasoning"
  /** A reasoning part that would be sent, with no output part after it in its message. */
  | "reasoning-without-following-item"
  /** The same provider item id in two different messages (the provider refuses duplicate items). */
  | "duplicate-item-id";

export type HistoryViolation = {
  code: HistoryViolationCode;
  /** Index of the offending message. */
  index: number;
  /** The call id or provider item id concerned. */
  id?: string;
  /** One line for a person: what is wrong and where. */
  message: string;
};

export type ValidateOptions = {
  /**
   * Accept calls without a result in the last assistant message when nothing but tool messages
   * follows it: that is a suspended approval, not damage. Off by default, because a request must
   * never be sent that way (the loop closes such calls before sending).
   */
  allowPendingCalls?: boolean;
};

/**
 * The invariants a history must satisfy to be accepted by both wires (Chat Completions and
 * Responses with stored items), as a list of violations — empty when the history is sendable.
 * Pure and cheap (one pass); used by the loop's assertions, `shiro sessions repair`, `shiro doctor`
 * and the tests. Strict about item references: nothing in a history says whether a reasoning
 * model wrote it, and a reference is only safe next to its reasoning item, while inline is
 * always valid — so the repair for a reported reference costs nothing.
 */
export function validateHistory(messages: readonly ModelMessage[], options: ValidateOptions = {}): HistoryViolation[] {
  const violations: HistoryViolation[] = [];
  const report = (code: HistoryViolationCode, index: number, id: string | undefined, message: string) =>
    violations.push({ code, index, ...(id !== undefined ? { id } : {}), message });

  const callAt = new Map<string, number>();
  const itemAt = new Map<string, number>();
  messages.forEach((m, index) => {
    if (m.role !== "assistant") return;
    for (const p of partsOf(m)) {
      if (p.type !== "tool-call") continue;
      const id = p.toolCallId as string;
      if (callAt.has(id)) report("duplicate-call-id", index, id, `message ${index}: tool call id ${id} was already used by message ${callAt.get(id)}`);
      else callAt.set(id, index);
    }
  });

  const answered = new Set<string>();
  let open = new Set<string>(); // calls of the latest assistant message, answerable by the tool messages right after it
  let lastCallMessage = -1;
  messages.forEach((m, index) => {
    const parts = partsOf(m);
    if (m.role === "tool") {
      for (const p of parts) {
        if (p.type !== "tool-result") continue;
        const id = p.toolCallId as string;
        const at = callAt.get(id);
        if (at === undefined) report("orphan-result", index, id, `message ${index}: tool result for ${id}, which no tool call made`);
        else if (at > index) report("result-before-call", index, id, `message ${index}: tool result for ${id} comes before its call (message ${at})`);
        else if (answered.has(id)) report("duplicate-result", index, id, `message ${index}: a second tool result for ${id}`);
        else if (!open.has(id)) report("result-not-adjacent", index, id, `message ${index}: tool result for ${id} is not right after its call (message ${at})`);
        if (at !== undefined && at <= index) answered.add(id);
        open.delete(id);
      }
      return;
    }
    open = new Set();
    if (m.role !== "assistant") return;
    checkItems(parts, index, itemAt, report);
    for (const p of parts) {
      if (p.type === "tool-result") answered.add(p.toolCallId as string); // a provider-executed tool answers in place
      if (p.type !== "tool-call" || p.providerExecuted || callAt.get(p.toolCallId as string) !== index) continue;
      open.add(p.toolCallId as string);
      lastCallMessage = index;
    }
  });

  const lastNonTool = messages.findLastIndex((m) => m.role !== "tool");
  for (const [id, index] of callAt) {
    if (answered.has(id)) continue;
    const call = partsOf(messages[index]!).find((p) => p.type === "tool-call" && p.toolCallId === id);
    if (call?.providerExecuted) continue;
    if (options.allowPendingCalls && index === lastCallMessage && index === lastNonTool) continue;
    report("missing-result", index, id, `message ${index}: tool call ${id} has no result`);
  }
  return violations.sort((a, b) => a.index - b.index);
}

function checkItems(
  parts: ReturnType<typeof partsOf>,
  index: number,
  itemAt: Map<string, number>,
  report: (code: HistoryViolationCode, index: number, id: string | undefined, message: string) => void,
) {
  let referencedReasoning = false;
  let lastOutput = -1;
  parts.forEach((p, i) => {
    if (!isReasoningPart(p)) lastOutput = i;
    else if (itemIdOf(p) !== undefined) referencedReasoning = true;
  });
  parts.forEach((p, i) => {
    const id = itemIdOf(p);
    if (id !== undefined) {
      const first = itemAt.get(id);
      if (first === undefined) itemAt.set(id, index);
      else if (first !== index) report("duplicate-item-id", index, id, `message ${index}: item ${id} also appears in message ${first}`);
    }
    if (isReasoningPart(p)) {
      const sent = id !== undefined || encryptedReasoningOf(p) !== undefined;
      if (sent && i > lastOutput) report("reasoning-without-following-item", index, id, `message ${index}: reasoning ${id ?? "(inline)"} has no output after it`);
    } else if (id !== undefined && !referencedReasoning && (p.type === "text" || p.type === "tool-call")) {
      report("reference-without-reasoning", index, id, `message ${index}: ${p.type} ${id} keeps its item id but its message has no reasoning item`);
    }
  });
}
