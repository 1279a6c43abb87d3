import { wrapHanging } from "./wrap.ts";

/** Narrower than this, a description beside its term would be a word a row: it goes under the term instead. */
const MIN_TEXT_COLUMNS = 24;
/** How far a description under its term is indented past the term. */
const UNDER_INDENT = "    ";

/**
 * Terms and their descriptions (`/help`'s commands) as rows of at most `width` columns. When there
 * is room, each description sits beside its term in one aligned column and wraps under itself,
 * not under the terms; on a narrow terminal each term has a row of its own and its description
 * follows on rows indented under it. An infinite width: one line per term, nothing wrapped. Pure.
 */
export function termRows(entries: readonly (readonly [term: string, text: string])[], width: number): string[] {
  if (entries.length === 0) return [];
  const wrap = (first: string, rest: string, text: string) => (Number.isFinite(width) ? wrapHanging(first, rest, text, width) : [first + text]);
  const column = Math.max(...entries.map(([term]) => Bun.stringWidth(term))) + 2;
  if (width - column >= MIN_TEXT_COLUMNS) {
    const under = " ".repeat(column);
    return entries.flatMap(([term, text]) => wrap(term + " ".repeat(column - Bun.stringWidth(term)), under, text));
  }
  return entries.flatMap(([term, text]) => [term, ...wrap(UNDER_INDENT, UNDER_INDENT, text)]);
}
