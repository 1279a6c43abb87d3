import { searchFor, searchLabel, searchMatch, searchOlder, startSearch, type HistorySearch } from "../../../lib/prompt/history-search.ts";
import type { Key } from "./keys.ts";

/** What a key did to an open search: it goes on, or it ended with the match taken or the input left as it was. */
export type SearchStep = { type: "searching"; search: HistorySearch } | { type: "accept"; text: string } | { type: "cancel" };

export const openSearch = startSearch;

/**
 * One key while ctrl-r's search line is open. Typing narrows, backspace widens, ctrl-r goes to
 * the next older match. Enter (and tab or an arrow) puts the match in the input, to edit or send
 * with one more enter; esc, ctrl-g and ctrl-c close the search and leave the input as it was.
 * Other keys are ignored.
 */
export function searchKey(search: HistorySearch, key: Key): SearchStep {
  const take = (): SearchStep => {
    const match = searchMatch(search);
    return match === undefined ? { type: "cancel" } : { type: "accept", text: match };
  };
  switch (key.name) {
    case "text":
    case "paste":
      return { type: "searching", search: searchFor(search, search.query + key.text.replace(/\n/g, " ")) };
    case "backspace":
      return { type: "searching", search: searchFor(search, search.query.slice(0, -1)) };
    case "ctrl-r":
      return { type: "searching", search: searchOlder(search) };
    case "enter":
    case "tab":
    case "left":
    case "right":
    case "home":
    case "end":
    case "up":
    case "down":
      return take();
    case "escape":
    case "ctrl-g":
    case "ctrl-c":
    case "ctrl-d":
      return { type: "cancel" };
    default:
      return { type: "searching", search };
  }
}

/** The search as the input row shows it: the label as the prompt, the match (or the typed input) as the text, the cursor on the query. */
export function searchView(search: HistorySearch, input: string): { prompt: string; text: string; cursor: number } {
  const match = searchMatch(search);
  const text = match ?? input;
  const at = match === undefined ? -1 : match.toLowerCase().indexOf(search.query.toLowerCase());
  return { prompt: searchLabel(search), text, cursor: at < 0 ? text.length : at };
}
