import type { ModelMessage } from "ai";

/**
 * What the model reads after a turn the user interrupted (Esc, Ctrl-C, a signal): its answer or
 * its calls may have been cut short, and the next prompt may change course. Kept in the history as
 * a user message marked `providerOptions.shiro.interrupted`, so a resumed session (`-c`, `/resume`)
 * tells the model the same, and replays and transcripts show it as the interruption it was, not as
 * something the user typed.
 */
export const INTERRUPTION_NOTE = "[The user interrupted the turn above: what came before this may be unfinished.]";

export function interruptionMessage(): ModelMessage {
  return { role: "user", content: INTERRUPTION_NOTE, providerOptions: { shiro: { interrupted: true } } };
}

export function isInterruptionMessage(message: { role?: unknown; providerOptions?: unknown }): boolean {
  if (message.role !== "user") return false;
  const shiro = (message.providerOptions as { shiro?: { interrupted?: unknown } } | undefined)?.shiro;
  return shiro?.interrupted === true;
}
