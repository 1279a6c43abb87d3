import type { ModelMessage } from "ai";

/** Longest title kept, ellipsis included. */
export const TITLE_MAX_CHARS = 60;

/**
 * A session's title: the first user prompt on one line (all whitespace collapsed), clipped to
 * `max` characters with "…". Clips on code points, so an emoji is never cut in half.
 */
export function titleFromPrompt(prompt: string, max = TITLE_MAX_CHARS): string {
  const flat = prompt.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  return chars.slice(0, max - 1).join("").trimEnd() + "…";
}

/** The title for a history: from its first user message's text, or "" when there is none yet. */
export function titleFromMessages(messages: readonly ModelMessage[], max = TITLE_MAX_CHARS): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const title = max === TITLE_MAX_CHARS ? titleOf(message) : titleFromPrompt(userText(message.content), max);
    if (title) return title;
  }
  return "";
}

/** A user message's title at the default length, kept per message object (every save asks again). */
function titleOf(message: ModelMessage): string {
  let title = titles.get(message);
  if (title === undefined) titles.set(message, (title = titleFromPrompt(userText(message.content))));
  return title;
}
const titles = new WeakMap<ModelMessage, string>();

function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join(" ");
}
