import { cutMiddle, ELLIPSIS, shortenPath } from "./shorten-path.ts";
import { wrapLine } from "./wrap.ts";

/**
 * A piece of a one-line summary (the loop's header): its text, how it is painted, whether it is a
 * path (or a slash-separated id), which is shortened in its middle rather than at its end, and
 * words before it that stay whole (`instructions from `). `glue`: it stays on the row of the part
 * before it, a path, on a row of their own, the path shortened if it must (`~/…/app · new session`).
 */
export type Part = { text: string; paint?: (text: string) => string; path?: boolean; lead?: string; glue?: boolean };

const width = (text: string) => Bun.stringWidth(text);
const whole = (part: Part) => (part.lead ?? "") + part.text;
const painted = (part: Part) => (part.paint ? part.paint(whole(part)) : whole(part));
const rowWidth = (parts: readonly Part[], separator: string) => width(parts.map(whole).join(separator));

/** A part in at most `columns` columns: a path shortened in its middle, other text cut at its end with `…`. */
export function shortenPart(part: Part, columns: number): Part {
  const room = columns - width(part.lead ?? "");
  if (width(part.text) <= room) return part;
  const text = part.path ? shortenPath(part.text, Math.max(room, 1)) : room <= 1 ? cutMiddle(part.text, Math.max(room, 0)) : cutEnd(part.text, room);
  return { ...part, text };
}

/**
 * `parts` joined by `separator` (painted with `paintSeparator`) into as few rows of `columns` as
 * whole parts allow, a row breaking only between parts; a part wider than a row is shortened to
 * fit one (shortenPart). Pure.
 */
export function joinFitting(parts: readonly Part[], separator: string, columns: number, paintSeparator: (s: string) => string = (s) => s): string[] {
  const rows: Part[][] = [];
  let row: Part[] = [];
  for (const part of parts.map((p) => shortenPart(p, columns))) {
    if (row.length > 0 && rowWidth([...row, part], separator) > columns) {
      // A glued part takes the path before it to a row of their own, where the path gives room if it must.
      if (part.glue && row.length > 1 && row.at(-1)!.path) {
        rows.push(row.slice(0, -1));
        row = row.slice(-1);
      }
      const glued = part.glue && rowWidth([...row, part], separator) > columns ? shortenLast(row, part, separator, columns) : row;
      if (part.glue && glued) row = glued;
      else if (rowWidth([...row, part], separator) > columns) {
        rows.push(row);
        row = [];
      }
    }
    row.push(part);
  }
  if (row.length > 0) rows.push(row);
  return rows.map((r) => r.map(painted).join(paintSeparator(separator)));
}

/**
 * The paths among `parts` shortened in their middle, the longest first, until the parts fit one
 * row of `columns`; a path is never shortened below `…/` and its last segment. The parts as they
 * are when that is not enough: then they fit no row, and the caller breaks them (joinFitting). Pure.
 */
export function shortenToFit(parts: readonly Part[], separator: string, columns: number): { parts: Part[]; fits: boolean } {
  const fitted = parts.map((p) => ({ ...p }));
  const floor = floorOf;
  const slack = (p: Part) => (p.path ? width(p.text) - floor(p) : 0);
  for (let over = rowWidth(fitted, separator) - columns; over > 0; over = rowWidth(fitted, separator) - columns) {
    const index = fitted.reduce((best, p, i) => (slack(p) > (best < 0 ? 0 : slack(fitted[best]!)) ? i : best), -1);
    if (index < 0) return { parts: [...parts], fits: false };
    const p = fitted[index]!;
    fitted[index] = { ...p, text: shortenPath(parts[index]!.text, Math.max(floor(p), width(p.text) - over)) };
  }
  return { parts: fitted, fits: true };
}

/** `parts` in one row of `columns` if shortening their paths allows it (shortenToFit), else broken between parts (joinFitting). Pure. */
export function fitRowOrBreak(parts: readonly Part[], separator: string, columns: number, paintSeparator?: (s: string) => string): string[] {
  const shortened = shortenToFit(parts, separator, columns);
  return joinFitting(shortened.fits ? shortened.parts : parts, separator, columns, paintSeparator);
}

/** The path `row` ends with shortened (not below `…/` and its last segment) so that `next` fits after it; undefined when it cannot. */
function shortenLast(row: readonly Part[], next: Part, separator: string, columns: number): Part[] | undefined {
  const last = row.at(-1)!;
  if (!last.path) return undefined;
  const room = columns - rowWidth([...row.slice(0, -1), { ...last, text: "" }, next], separator);
  if (room < floorOf(last)) return undefined;
  return [...row.slice(0, -1), { ...last, text: shortenPath(last.text, room) }];
}

/** How far a path may be shortened: to `…/` and its last segment. */
function floorOf(part: Part): number {
  return Math.min(width(part.text), width(`${ELLIPSIS}/${part.text.split("/").at(-1)}`));
}

/** `text` cut to `columns` with `…` at its end. */
function cutEnd(text: string, columns: number): string {
  let out = "";
  for (const char of text) {
    if (width(out + char) > columns - 1) break;
    out += char;
  }
  return out + ELLIPSIS;
}

/**
 * A line of prose whose parts are joined by `separator` (`sandbox on: … · network on`) as rows of
 * `columns`: rows break between parts, never leaving a separator at a row's end; a part wider than
 * a row is wrapped at its spaces (wrapLine), and the parts after it go on from its last row. Plain
 * text in, plain rows out (paint them after). Pure.
 */
export function wrapParts(text: string, columns: number, separator = " · "): string[] {
  if (width(text) <= columns) return [text];
  const rows: string[] = [];
  let row = "";
  for (const part of text.split(separator)) {
    const joined = row === "" ? part : row + separator + part;
    if (width(joined) <= columns) {
      row = joined;
      continue;
    }
    if (row !== "") rows.push(row);
    const wrapped = wrapLine(part, columns);
    rows.push(...wrapped.slice(0, -1));
    row = wrapped.at(-1)!;
  }
  if (row !== "") rows.push(row);
  return rows;
}
