// Project memory: the public surface used by cmd/ and lib/agent. See docs/project-memory.md.
export { MEMORY_KINDS, MemoryEntry, MemoryFile, MemoryKind, type NoteDraft } from "./schema.ts";
export * from "./limits.ts";
export { memoryStorePath } from "./store-path.ts";
export { createMemoryStore, openMemoryStore, serializeMemory, type MemoryChange, type MemoryStore, type MemoryStoreOptions } from "./store.ts";
export { addEntry, checkNote, rememberNote, type AddResult } from "./remember.ts";
export { recallEntries, recallNotes, type RecallResult } from "./recall.ts";
export { forgetEntries, forgetNotes, type ForgetResult } from "./forget.ts";
export { MEMORY_BLOCK_HEADER, rankNotes, renderMemoryBlock } from "./boot-block.ts";
export { formatNotes, formatNotesJson } from "./notes-list.ts";
export { pathsNamed, staleMarks } from "./stale.ts";
export { recordCommandRun, withCommandRun } from "./command-runs.ts";
export { planCompaction, type CompactionPlan } from "./compaction-plan.ts";
export { parseCompactionReply } from "./compaction-reply.ts";
export { applyCompaction, compactMemory, mergeCompaction, type CompactionOutcome } from "./compaction-apply.ts";
export { MAX_SUGGESTED_NOTES, SUGGESTION_INSTRUCTIONS_START, parseSuggestions, suggestionRequest } from "./suggestions.ts";
export { inboxPath, openInbox, type Inbox, type InboxItem } from "./inbox.ts";
