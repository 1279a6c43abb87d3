import type { ModelMessage } from "ai";
import { promptText } from "../image/part.ts";

/**
 * The history with the last user message sent as `prompt` marked as a turn that failed (`error`,
 * kept in the "shiro" namespace as `failed`, which no provider reads), or unmarked when `error` is
 * undefined (the same prompt sent again got its answer). The same array when nothing changes.
 * A resumed session's replay and `shiro sessions show` say that the turn got no answer, and why.
 */
export function markTurnFailure(history: readonly ModelMessage[], prompt: string, error: string | undefined): readonly ModelMessage[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.role !== "user" || promptText(message.content) !== prompt) continue;
    const { failed, ...shiro } = (message.providerOptions?.shiro ?? {}) as Record<string, unknown>;
    if (failed === error) return history;
    const marked: ModelMessage = { ...message, providerOptions: { ...message.providerOptions, shiro: error === undefined ? shiro : { ...shiro, failed: error } } } as ModelMessage;
    return [...history.slice(0, i), marked, ...history.slice(i + 1)];
  }
  return history;
}
