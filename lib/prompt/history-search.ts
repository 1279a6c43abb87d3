/**
 * ctrl-r: searching the prompt history backwards, as bash's reverse-i-search does. `index` is the
 * entry shown (undefined: none matched yet); `failing` says the last step found nothing, so the
 * previous match stays on screen. Matching ignores case. Pure: every step returns a new state.
 */
export type HistorySearch = {
  /** Oldest first, as the history store keeps them. */
  readonly entries: readonly string[];
  readonly query: string;
  readonly index: number | undefined;
  readonly failing: boolean;
};

export function startSearch(entries: readonly string[]): HistorySearch {
  return { entries, query: "", index: undefined, failing: false };
}

/** The newest entry at or before `from` that contains `query`. */
function findFrom(entries: readonly string[], query: string, from: number, skip?: string): number | undefined {
  const needle = query.toLowerCase();
  for (let i = from; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry === skip) continue; // the same prompt typed again is not a new match
    if (entry.toLowerCase().includes(needle)) return i;
  }
  return undefined;
}

/** The query changed (a character typed or taken back): the newest match at or before the one shown. */
export function searchFor(search: HistorySearch, query: string): HistorySearch {
  if (query === "") return { ...search, query, index: undefined, failing: false };
  // A longer query narrows from where the search stands; a shorter one starts again from the newest.
  const from = query.startsWith(search.query) && search.index !== undefined ? search.index : search.entries.length - 1;
  const index = findFrom(search.entries, query, from);
  return index === undefined ? { ...search, query, failing: true } : { ...search, query, index, failing: false };
}

/** ctrl-r again: the next older match (a different prompt from the one shown). */
export function searchOlder(search: HistorySearch): HistorySearch {
  if (search.query === "" || search.index === undefined) return search;
  const index = findFrom(search.entries, search.query, search.index - 1, search.entries[search.index]);
  return index === undefined ? { ...search, failing: true } : { ...search, index, failing: false };
}

/** The prompt the search shows, or undefined while nothing has matched. */
export function searchMatch(search: HistorySearch): string | undefined {
  return search.index === undefined ? undefined : search.entries[search.index];
}

/** `(reverse-i-search)'query': ` (with `failing ` when the last step found nothing), the label before the match. */
export function searchLabel(search: HistorySearch): string {
  return `(${search.failing ? "failing " : ""}reverse-i-search)'${search.query}': `;
}
