import type { ModelMessage } from "ai";

/**
 * The step's tool results with, for each call that was not run, the few words the user saw of its
 * denial (the `tool-denied` event's `shown`, lib/permissions/shown.ts), kept in the result part's
 * `providerOptions.shiro.shown`. A resumed session's replay shows that line again instead of the
 * reason written for the model. Providers read only their own namespace, so what the model is
 * sent does not change. Returns the same array when there is nothing to add.
 */
export function withDenialsShown(messages: ModelMessage[], shown: ReadonlyMap<string, string>): ModelMessage[] {
  if (shown.size === 0) return messages;
  return messages.map((m) =>
    m.role === "tool"
      ? {
          ...m,
          content: m.content.map((p) =>
            p.type === "tool-result" && shown.has(p.toolCallId) ? { ...p, providerOptions: { ...p.providerOptions, shiro: { ...p.providerOptions?.shiro, shown: shown.get(p.toolCallId)! } } } : p,
          ),
        }
      : m,
  );
}
