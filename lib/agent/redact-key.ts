import type { AgentEvent } from "../events.ts";

/** What stands in for the API key wherever it would have been shown. */
export const REDACTED_KEY = "[redacted API key]";

/** Keys shorter than this are not hunted for: a short test key would blank ordinary words. */
const MIN_KEY_CHARS = 8;

/**
 * A function that replaces every occurrence of `key` in a text, and of the key written backwards,
 * with REDACTED_KEY; the identity when there is no key (local servers) or it is too short to be a
 * real one. A provider or proxy can echo the key back in an error body ("Incorrect API key
 * provided: sk-…"), and that text becomes a notice or an error on screen, in CI logs and in the
 * JSON result record. (No command can print the key: none has it in its environment.)
 */
export function keyRedactor(key: string | undefined): (text: string) => string {
  if (!key || key.length < MIN_KEY_CHARS) return unchanged;
  const backwards = [...key].reverse().join("");
  return (text) => {
    let out = text.includes(key) ? text.replaceAll(key, REDACTED_KEY) : text;
    if (out.includes(backwards)) out = out.replaceAll(backwards, REDACTED_KEY);
    return out;
  };
}

/** The redactor when there is no key to hide: redactDeep knows it and walks nothing. */
const unchanged = (text: string) => text;

/**
 * `value` with `redact` applied to every string in it, however deep (messages, tool inputs,
 * events); the same object when nothing changed. Used on everything the session appends, so the
 * key is gone from the model's text and tool arguments before the history is saved or sent.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (redact === unchanged) return value;
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactDeep(item, redact);
      if (next !== item) changed = true;
      return next;
    });
    return (changed ? out : value) as T;
  }
  if (value !== null && typeof value === "object" && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      const next = redactDeep(item, redact);
      if (next !== item) changed = true;
      out[name] = next;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/** The event with the key removed from every text it carries (answers, tool input and output, notices, errors). */
export function redactEvent(event: AgentEvent, redact: (text: string) => string): AgentEvent {
  return redactDeep(event, redact);
}
