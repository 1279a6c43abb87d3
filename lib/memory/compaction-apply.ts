import { MEMORY_MAX_ENTRIES, MEMORY_TEXT_MAX_CHARS } from "./limits.ts";
import { checkNote } from "./remember.ts";
import type { CompactionPlan } from "./compaction-plan.ts";
import { planCompaction } from "./compaction-plan.ts";
import { parseCompactionReply } from "./compaction-reply.ts";
import type { MemoryEntry, NoteDraft } from "./schema.ts";
import type { MemoryStore } from "./store.ts";
import { normalizeNoteText, noteKey, notes } from "./text.ts";

export type CompactionOutcome =
  /** Under the thresholds: nothing was sent or changed. `notes`: how many the store holds. */
  | { type: "noop"; message: string; notes: number }
  /** The reply could not be used: the store was not touched. */
  | { type: "rejected"; message: string }
  | { type: "applied"; message: string; before: number; after: number; replaced: number; added: number; skipped: string[] };

type Merge = { ok: true; entries: MemoryEntry[]; replaced: number; added: number; skipped: string[] } | { ok: false; message: string };

/**
 * Replaces the sent notes that are still unused with the drafts, on the store as it is now:
 * notes added since the plan are kept, and a sent note recalled since is kept verbatim (the
 * recall protects it). Drafts are checked like `remember` (caps, duplicates of kept notes or of
 * each other). Refuses, changing nothing, when no draft survives, when the reply has more notes
 * than it was given (that is not a merge), or when the result would overflow the store. Pure.
 */
export function mergeCompaction(current: readonly MemoryEntry[], send: readonly MemoryEntry[], drafts: readonly NoteDraft[], make: { now: Date; newId: () => string }): Merge {
  const sentIds = new Set(send.map((e) => e.id));
  const replaced = current.filter((e) => sentIds.has(e.id) && e.hits === 0);
  if (replaced.length === 0) {
    return { ok: false, message: "Every note sent for merging was recalled or removed in the meantime, so project memory was left unchanged." };
  }
  const remaining = current.filter((e) => !replaced.includes(e));
  const seen = new Set(remaining.map((e) => noteKey(e.text)));
  const skipped: string[] = [];
  const merged: MemoryEntry[] = [];
  let valid = 0;
  for (const draft of drafts) {
    const checked = checkNote(draft);
    if (!checked.ok) {
      const text = normalizeNoteText(draft.text);
      const why = checked.problem === "empty" ? "empty text" : `${text.length} characters, over the ${MEMORY_TEXT_MAX_CHARS} limit`;
      skipped.push(`${why}: (${draft.kind}) ${clip(text)}`);
      continue;
    }
    valid++;
    const key = noteKey(checked.note.text);
    if (seen.has(key)) {
      skipped.push(`duplicate of a kept note: (${checked.note.kind}) ${checked.note.text}`);
      continue;
    }
    seen.add(key);
    merged.push({ id: make.newId(), kind: checked.note.kind, text: checked.note.text, createdAt: make.now.toISOString(), hits: 0 });
  }
  if (merged.length === 0) {
    return { ok: false, message: `The model's reply had no usable notes (${skippedSummary(skipped)}), so project memory was left unchanged.` };
  }
  if (valid > send.length) {
    return { ok: false, message: `The model's reply has ${notes(valid)} for the ${send.length} it was given, which is not a merge, so project memory was left unchanged.` };
  }
  const entries = [...remaining, ...merged];
  if (entries.length > MEMORY_MAX_ENTRIES) {
    return { ok: false, message: `The merge would leave ${entries.length} notes, over the ${MEMORY_MAX_ENTRIES}-note limit, so project memory was left unchanged.` };
  }
  return { ok: true, entries, replaced: replaced.length, added: merged.length, skipped };
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function skippedSummary(skipped: readonly string[]): string {
  if (skipped.length === 0) return 'no line in the form "(kind) text"';
  return `${skipped.length === 1 ? "1 line" : `${skipped.length} lines`} skipped, first: ${skipped[0]}`;
}

/**
 * Applies a model's reply to a merge plan. A reply with nothing parseable never takes the lock
 * or touches the file; otherwise the store is re-read under its lock and replaced atomically.
 */
export async function applyCompaction(store: MemoryStore, plan: Extract<CompactionPlan, { type: "merge" }>, reply: string): Promise<CompactionOutcome> {
  const parsed = parseCompactionReply(reply);
  if (parsed.drafts.length === 0) {
    return { type: "rejected", message: `The model's reply had no usable notes (${skippedSummary(parsed.skipped)}), so project memory was left unchanged.` };
  }
  return store.update<CompactionOutcome>((current) => {
    const merge = mergeCompaction(current, plan.send, parsed.drafts, { now: store.now(), newId: store.newId });
    if (!merge.ok) return { result: { type: "rejected", message: merge.message } };
    const skipped = [...parsed.skipped, ...merge.skipped];
    const kept = merge.entries.length - merge.added;
    const message =
      `Compacted project memory from ${current.length} to ${notes(merge.entries.length)}: ${notes(merge.replaced)} never recalled ` +
      `merged into ${merge.added}, ${kept} kept as they were.` +
      (skipped.length > 0 ? ` From the reply, ${skippedSummary(skipped)}.` : "");
    const outcome: CompactionOutcome = { type: "applied", message, before: current.length, after: merge.entries.length, replaced: merge.replaced, added: merge.added, skipped };
    return { entries: merge.entries, result: outcome };
  });
}

/**
 * `/memory` and `shiro memory compact`: plan on the current store; when there is work, ask the
 * model once and apply its reply. `generate` sends one prompt and returns the reply text (wire it
 * to the AI SDK's generateText with the session's model). A thrown `generate` propagates with the
 * store untouched. The message of every outcome is written for the user.
 */
export async function compactMemory(opts: { store: MemoryStore; generate: (prompt: string) => Promise<string> }): Promise<CompactionOutcome & { notice?: string }> {
  const { entries, notice } = await opts.store.read();
  const withNotice = <T extends CompactionOutcome>(o: T) => (notice ? { ...o, notice } : o);
  const plan = planCompaction(entries);
  if (plan.type === "noop") return withNotice({ type: "noop", message: plan.reason, notes: entries.length });
  const reply = await opts.generate(plan.prompt);
  return withNotice(await applyCompaction(opts.store, plan, reply));
}
