import * as v from "valibot";

/** What a note is, which tells the reader how far to trust it. Order is the order the model is taught. */
export const MEMORY_KINDS = ["fact", "decision", "gotcha", "command"] as const;
export const MemoryKind = v.picklist(MEMORY_KINDS, `kind must be one of: ${MEMORY_KINDS.join(", ")}`);
export type MemoryKind = v.InferOutput<typeof MemoryKind>;

/**
 * One note. `hits` counts recalls; a note with at least one is never merged by compaction.
 * `lastHitAt` appears once the note has been recalled. Times are ISO 8601 strings.
 * Caps (400 characters, no duplicates) are enforced when a note is added, not here: a file a
 * person edited by hand is still readable.
 */
export const MemoryEntry = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  kind: MemoryKind,
  text: v.string(),
  createdAt: v.string(),
  hits: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastHitAt: v.optional(v.string()),
  /**
   * A `command` note whose command, the last time the agent ran it, could not run: not found (exit
   * 127) or not executable (126), and when. Any other exit of a later run takes it off
   * (lib/app/command-notes.ts records it; stale.ts marks the note).
   */
  couldNotRun: v.optional(v.object({ exitCode: v.picklist([126, 127]), at: v.string() })),
});
export type MemoryEntry = v.InferOutput<typeof MemoryEntry>;

/** `$SHIRO_HOME/memory/<hash>.json`, pretty-printed so a person can read and edit it. */
export const MemoryFile = v.object({
  version: v.literal(1),
  entries: v.array(MemoryEntry),
});
export type MemoryFile = v.InferOutput<typeof MemoryFile>;

/** A note as the model or a compaction reply proposes it, before it is checked and stored. */
export type NoteDraft = { kind: MemoryKind; text: string };
