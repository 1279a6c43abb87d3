/**
 * The words that open the message replacing the transcript after `/compact` (the model reads them
 * before its own summary). Here, beside the text helpers, so both the summary's maker
 * (lib/prune/compact-summary.ts) and the readers of a saved history (replays, `sessions show`)
 * know a summary from a prompt the user typed.
 */
export const COMPACT_SUMMARY_INTRO =
  "This session was compacted with /compact: the conversation so far was replaced by the summary below, " +
  "which you wrote. The task list and project memory are unchanged. Continue from it; check the files " +
  "before relying on details it does not state.";

/** The summary itself, when `text` is a compaction's message; undefined for anything else. */
export function compactSummaryOf(text: string): string | undefined {
  return text.startsWith(COMPACT_SUMMARY_INTRO) ? text.slice(COMPACT_SUMMARY_INTRO.length).trim() : undefined;
}
