import type { ModelMessage, ToolModelMessage } from "ai";

/** What the model reads for a call that never got a result (abort, crash, step cap). */
export const INTERRUPTED_RESULT = "interrupted before it finished; its effects are unknown. Check the current state before relying on it.";

/**
 * Gives every tool call that has no result a synthetic error result, placed right after the
 * assistant message that made the call, so the next request never fails with a missing tool
 * result. Idempotent; returns a new array and never mutates the input. The synthetic result
 * answers the original call id, so it is stable across repairs and prompt caches stay valid.
 */
export function closeDanglingToolCalls(messages: readonly ModelMessage[]): ModelMessage[] {
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role !== "tool") continue;
    for (const part of m.content) if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  const out: ModelMessage[] = [];
  let changed = false;
  for (const m of messages) {
    out.push(m);
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    const dangling = m.content.filter(
      (part) => part.type === "tool-call" && !part.providerExecuted && !answered.has(part.toolCallId),
    );
    if (dangling.length === 0) continue;
    changed = true;
    const results: ToolModelMessage = {
      role: "tool",
      content: dangling.map((part) => ({
        type: "tool-result" as const,
        toolCallId: (part as { toolCallId: string }).toolCallId,
        toolName: (part as { toolName: string }).toolName,
        output: { type: "error-text" as const, value: INTERRUPTED_RESULT },
      })),
    };
    out.push(results);
  }
  return changed ? out : (messages as ModelMessage[]);
}
