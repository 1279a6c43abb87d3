import type { MemoryEntry } from "./schema.ts";
import type { MemoryStore } from "./store.ts";

/**
 * The notes after the agent ran a command that `matches` picks out among the `command` notes:
 * exit 127 (not found) or 126 (not executable) records `couldNotRun` with the run's time; any
 * other exit takes a record off (a failing test run is a command that ran). Undefined when no
 * note changes, so nothing is written. Pure; never mutates `entries`.
 */
export function withCommandRun(entries: readonly MemoryEntry[], matches: (entry: MemoryEntry) => boolean, exitCode: number, now: Date): MemoryEntry[] | undefined {
  let changed = false;
  const next = entries.map((entry): MemoryEntry => {
    if (entry.kind !== "command" || !matches(entry)) return entry;
    if (exitCode === 126 || exitCode === 127) {
      changed = true;
      return { ...entry, couldNotRun: { exitCode: exitCode === 126 ? 126 : 127, at: now.toISOString() } };
    }
    if (!entry.couldNotRun) return entry;
    changed = true;
    const { couldNotRun: _, ...ran } = entry;
    return ran;
  });
  return changed ? next : undefined;
}

/** `withCommandRun` against the store, under its lock; nothing is locked or written when no note changes. */
export function recordCommandRun(store: MemoryStore, matches: (entry: MemoryEntry) => boolean, exitCode: number): Promise<void> {
  return store.update<void>((entries) => {
    const next = withCommandRun(entries, matches, exitCode, store.now());
    return next ? { entries: next, result: undefined } : { result: undefined };
  });
}
