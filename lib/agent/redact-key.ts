import type { AgentEvent } from "../events.ts";

/** What stands in for the API key wherever it would have been shown. */
export const REDACTED_KEY = "[redacted API key]";

/** Keys shorter than this are not hunted for: a short test key would blank ordinary words. */
const MIN_KEY_CHARS = 8;

/**
 * A function that replaces every occurrence of `key` in a text with REDACTED_KEY; the identity
 * when there is no key (local servers) or it is too short to be a real one. A provider or proxy can
 * echo the key back in an error body ("Incorrect API key provided: sk-…"), and that text becomes a
 * notice or an error on screen, in CI logs and in the JSON result record.
 */
export function keyRedactor(key: string | undefined): (text: string) => string {
  if (!key || key.length < MIN_KEY_CHARS) return (text) => text;
  return (text) => (text.includes(key) ? text.replaceAll(key, REDACTED_KEY) : text);
}

/** The event with the key removed from the lines that carry provider text (notices and errors). */
export function redactEvent(event: AgentEvent, redact: (text: string) => string): AgentEvent {
  switch (event.type) {
    case "notice":
    case "error": {
      const message = redact(event.message);
      return message === event.message ? event : { ...event, message };
    }
    default:
      return event;
  }
}
