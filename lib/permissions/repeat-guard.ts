/** The third identical call in a turn is held back: the model is going round in circles. */
export const REPEAT_LIMIT = 3;

/**
 * Counts identical calls (same tool, same input as stable JSON) within one turn. A call to a
 * mutating tool with different input starts every other count afresh: after an edit, running the
 * same test command again is progress, not a loop. `reset()` at the start of each turn.
 */
export type RepeatTracker = {
  /** Records a call and returns how many times it has now been seen, this one included. */
  record(tool: { name: string; mutates: boolean }, input: unknown): number;
  reset(): void;
};

export function createRepeatTracker(): RepeatTracker {
  let counts = new Map<string, number>();
  return {
    record(tool, input) {
      const key = `${tool.name}\u0000${stableJson(input)}`;
      const count = (counts.get(key) ?? 0) + 1;
      if (tool.mutates) counts = new Map();
      counts.set(key, count);
      return count;
    },
    reset() {
      counts = new Map();
    },
  };
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are the same input. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }) ?? "undefined";
}
