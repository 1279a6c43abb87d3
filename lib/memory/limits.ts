/** A note longer than this is refused, never cut: a clipped note can say the opposite of the original. */
export const MEMORY_TEXT_MAX_CHARS = 400;
/** The store refuses new notes past this; room is made with `forget` or `/memory`. */
export const MEMORY_MAX_ENTRIES = 300;
/** `recall` shows at most this many matches, newest first. */
export const RECALL_MAX_MATCHES = 15;
/** Notes placed in the system prompt at the start of a session. */
export const MEMORY_BLOCK_MAX_ENTRIES = 20;
/** Compaction only runs on a store with more than this many notes… */
export const COMPACT_ABOVE_ENTRIES = 60;
/** …and at least this many that were never recalled. */
export const COMPACT_MIN_UNUSED = 2;
