import type { ModelMessage } from "ai";
import { isInterruptionMessage } from "../text/interruption.ts";

/**
 * How a session's runs went, as listings mark it (docs/sessions.md):
 * - `no-answer`: it holds prompts but not one answer: every run ended before the model said
 *   anything (the server refused, the network failed, shiro was killed or stopped). Listed as
 *   `failed (no answer)`; `shiro -c -p` sends the prompt again.
 * - `last-turn-failed`: it got answers (in this turn or before), but its newest turn failed: the
 *   turn marked its prompt so (lib/agent/turn-failure.ts: the provider failed it, even after some
 *   steps), or nothing came after the prompt at all (killed while waiting). Listed as
 *   `last turn failed`; what came before the failure is kept, and `-c` goes on from it.
 * Undefined when the newest turn ended otherwise (answered, stopped after some output) or there
 * are no messages.
 */
export type SessionOutcome = "no-answer" | "last-turn-failed";
export const SESSION_OUTCOMES = ["no-answer", "last-turn-failed"] as const satisfies readonly SessionOutcome[];

/** The words a listing shows for an outcome. */
export const OUTCOME_MARKS: Record<SessionOutcome, string> = { "no-answer": "failed (no answer)", "last-turn-failed": "last turn failed" };

/** The outcome of `messages` (see SessionOutcome). Reads from the end: a long answered session costs a few messages, not all. Pure. */
export function sessionOutcome(messages: readonly ModelMessage[]): SessionOutcome | undefined {
  let answeredAfter = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") answeredAfter = true;
    // A prompt's content is its text, or its text and image parts (an attached image: lib/image/part.ts).
    if (message.role !== "user" || (typeof message.content !== "string" && !Array.isArray(message.content)) || isInterruptionMessage(message)) continue;
    // The newest prompt.
    const failed = (message.providerOptions?.shiro as { failed?: unknown } | undefined)?.failed !== undefined;
    if (answeredAfter && !failed) return undefined;
    return messages.some((m) => m.role === "assistant") ? "last-turn-failed" : "no-answer";
  }
  return undefined;
}
