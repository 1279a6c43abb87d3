/**
 * The prompt queue: prompts typed while a turn runs, waiting for it to end. In memory only, and
 * deliberately so — a queued thought that fires on the next launch, against a workspace that has
 * changed since, is worse than a lost one. `esc` clears it; quitting discards it.
 */
export type PromptQueue = {
  /** Adds a prompt at the back; returns how many are waiting. Blank prompts are not queued. */
  push(prompt: string): number;
  /** The oldest prompt, removed; undefined when empty. */
  shift(): string | undefined;
  /** The newest prompt, removed (taken back into the input to edit); undefined when empty. */
  pop(): string | undefined;
  /** Empties the queue; returns how many were dropped. */
  clear(): number;
  items(): readonly string[];
  readonly size: number;
};

export function createPromptQueue(): PromptQueue {
  let items: string[] = [];
  return {
    push(prompt) {
      if (prompt.trim() !== "") items = [...items, prompt];
      return items.length;
    },
    shift() {
      const [first, ...rest] = items;
      items = rest;
      return first;
    },
    pop() {
      const last = items.at(-1);
      items = items.slice(0, -1);
      return last;
    },
    clear() {
      const dropped = items.length;
      items = [];
      return dropped;
    },
    items: () => items,
    get size() {
      return items.length;
    },
  };
}

/** Longest a queued prompt is shown before it is cut with "…". */
const QUEUED_PREVIEW_CHARS = 60;

/**
 * `queued (2): fix the test · /cost` — the waiting prompts, oldest first, each flattened to one
 * line and clipped. Empty string for an empty queue. Pure.
 */
export function describeQueue(items: readonly string[], maxChars = QUEUED_PREVIEW_CHARS): string {
  if (items.length === 0) return "";
  const previews = items.map((item) => {
    const flat = item.replace(/\s+/g, " ").trim();
    return flat.length > maxChars ? flat.slice(0, maxChars - 1) + "…" : flat;
  });
  return `queued (${items.length}): ${previews.join(" · ")}`;
}
