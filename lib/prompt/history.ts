import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { projectHash } from "../fs/project-root.ts";
import { readJsonFile } from "../fs/read-json.ts";

/** Prompts kept per project directory; the oldest fall off. */
export const HISTORY_MAX_ENTRIES = 200;

const HistoryFile = v.object({
  project: v.string(),
  /** Oldest first. */
  entries: v.array(v.string()),
});
type HistoryFile = v.InferOutput<typeof HistoryFile>;

/** `$SHIRO_HOME/history/<projectHash(projectRoot)>.json`, the same name as the project's memory store. */
export function historyPath(home: string, projectRoot: string): string {
  return join(home, "history", `${projectHash(projectRoot)}.json`);
}

/**
 * `entries` plus `prompt`, the way history records it: blank prompts are not kept, a prompt equal
 * to the newest entry is not added twice, and only the newest `max` survive. Pure; returns a new
 * array (or the same one when nothing changes).
 */
export function appendEntry(entries: readonly string[], prompt: string, max = HISTORY_MAX_ENTRIES): readonly string[] {
  if (prompt.trim() === "") return entries;
  if (entries.at(-1) === prompt) return entries.length > max ? entries.slice(-max) : entries;
  const next = [...entries, prompt];
  return next.length > max ? next.slice(next.length - max) : next;
}

export type HistoryStore = {
  /** Oldest first, as last read or written. */
  entries(): readonly string[];
  /**
   * Records a prompt: re-reads the file (another shiro in the same project may have added to it),
   * appends, writes atomically. Returns a notice for the user when the file had to be set aside or
   * could not be written; never throws.
   */
  add(prompt: string): string | undefined;
};

/**
 * The prompt history of one project directory. A file that cannot be read as history is moved
 * aside (never deleted) and a fresh one starts; `notice` says so once. Not fatal either way: the
 * worst case is a session without recall.
 */
export function openHistory(home: string, projectRoot: string): { store: HistoryStore; notice?: string } {
  const path = historyPath(home, projectRoot);
  const read = (): { entries: readonly string[]; notice?: string } => {
    const result = readJsonFile(path, HistoryFile);
    switch (result.status) {
      case "ok":
        return { entries: result.value.entries.slice(-HISTORY_MAX_ENTRIES) };
      case "missing":
        return { entries: [] };
      case "corrupt":
        return {
          entries: [],
          notice:
            `prompt history ${path} could not be read (${result.reason}); ` +
            (result.movedTo ? `moved it to ${result.movedTo} and started a fresh one.` : "starting a fresh one."),
        };
      default:
        return result satisfies never;
    }
  };
  const first = read();
  let entries = first.entries;
  const store: HistoryStore = {
    entries: () => entries,
    add(prompt) {
      const current = read();
      const next = appendEntry(current.entries, prompt);
      entries = next;
      if (next === current.entries && !current.notice) return undefined;
      const file: HistoryFile = { project: projectRoot, entries: [...next] };
      try {
        writeStateFileSync(path, JSON.stringify(file, null, 1) + "\n");
        return current.notice;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return `could not save prompt history to ${path}: ${reason}`;
      }
    },
  };
  return { store, notice: first.notice };
}

/**
 * Walking the history with Up and Down. `index` === entries.length means "the draft": what was
 * being typed before the walk began, restored when Down goes past the newest entry.
 */
export type HistoryWalk = { readonly entries: readonly string[]; readonly index: number; readonly draft: string };

export function startWalk(entries: readonly string[]): HistoryWalk {
  return { entries, index: entries.length, draft: "" };
}

/** One step older. `current` is the text in the input now (kept as the draft when leaving it). */
export function walkUp(walk: HistoryWalk, current: string): { walk: HistoryWalk; text: string } | undefined {
  if (walk.index === 0) return undefined;
  const draft = walk.index === walk.entries.length ? current : walk.draft;
  const index = walk.index - 1;
  return { walk: { ...walk, index, draft }, text: walk.entries[index]! };
}

/** One step newer; past the newest entry the draft comes back. Undefined when already on the draft. */
export function walkDown(walk: HistoryWalk): { walk: HistoryWalk; text: string } | undefined {
  if (walk.index >= walk.entries.length) return undefined;
  const index = walk.index + 1;
  const text = index === walk.entries.length ? walk.draft : walk.entries[index]!;
  return { walk: { ...walk, index }, text };
}
