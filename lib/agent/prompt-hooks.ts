import type { ModelMessage } from "ai";
import type { Hooks } from "../hooks/hooks.ts";
import type { EventSink } from "../events.ts";
import { reportTo } from "./tool-hooks.ts";

/** What the UserPromptSubmit hooks said about a prompt. */
export type PromptVerdict = { blocked: string | undefined; context: string[] };

/** UserPromptSubmit: a block keeps the prompt from the model (its reason is the user's); context goes with it. */
export async function promptSubmitted(hooks: Hooks, prompt: string, emit: EventSink, signal: AbortSignal): Promise<PromptVerdict> {
  if (!hooks.has("UserPromptSubmit")) return { blocked: undefined, context: [] };
  const outcome = await hooks.fire("UserPromptSubmit", { prompt }, { signal, onRun: reportTo(emit) });
  for (const message of outcome.systemMessages) emit({ type: "notice", message });
  const stopped = outcome.stop ? (outcome.stop.reason ?? "a UserPromptSubmit hook stopped it") : undefined;
  return { blocked: outcome.blocked ? outcome.reasons.join("\n") || "a UserPromptSubmit hook blocked it" : stopped, context: outcome.context };
}

/**
 * The prompt as the model reads it, with the context hooks added (SessionStart's for the first
 * prompt, UserPromptSubmit's): after the prompt, marked as coming from hooks.
 */
export function withHookContext(prompt: string, context: readonly string[]): string {
  if (context.length === 0) return prompt;
  return `${prompt}\n\n<hook-context>\n${context.join("\n\n")}\n</hook-context>`;
}

/**
 * Stop (or SubagentStop): the reason the turn must go on, when a hook blocks its end; undefined to
 * let it end. `active` is true when the turn already went on because of a Stop hook.
 */
export async function stopRequested(
  hooks: Hooks,
  event: "Stop" | "SubagentStop",
  turn: { active: boolean; messages: readonly ModelMessage[] },
  emit: EventSink,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!hooks.has(event)) return undefined;
  const outcome = await hooks.fire(event, { stop_hook_active: turn.active, last_assistant_message: lastAssistantText(turn.messages) }, { signal, onRun: reportTo(emit) });
  for (const message of outcome.systemMessages) emit({ type: "notice", message });
  if (outcome.stop || !outcome.blocked || signal.aborted) return undefined;
  return outcome.reasons.join("\n") || `a ${event} hook asked you to go on`;
}

/** The instruction the model gets when a Stop hook keeps the turn going. */
export function stopHookMessage(reason: string): ModelMessage {
  return { role: "user", content: `A Stop hook did not let the turn end yet. It says:\n${reason}` };
}

function lastAssistantText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    if (typeof message.content === "string") return message.content;
    const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    if (text !== "") return text;
  }
  return "";
}
