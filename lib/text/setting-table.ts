/**
 * `shiro config`'s table of settings as rows of at most `width` columns: the key, the value and
 * where it came from, each in its own aligned column. A value too long for its column wraps
 * inside it (JSON after a comma or an opening bracket, other text at a space), and so does the source, so the
 * columns stay aligned and no row runs past the width. Too narrow for three columns, each key
 * has a row of its own with its value and source under it. Pure.
 */

/** The widest the value column grows; a longer value wraps. */
const MAX_VALUE_COLUMNS = 40;
/** The narrowest the value and source columns get on a narrow terminal before the table stops shrinking. */
const MIN_VALUE_COLUMNS = 12;
const MIN_SOURCE_COLUMNS = 16;
/** How far a value and its source are indented under their key when the columns do not fit. */
const UNDER = "      ";
const GAP = "  ";
const INDENT = "  ";

export function settingTable(rows: readonly (readonly [key: string, value: string, source: string])[], width: number): string[] {
  if (rows.length === 0) return [];
  const keyWidth = Math.max(...rows.map(([key]) => Bun.stringWidth(key))) + GAP.length;
  // As wide as the widest value that fits the column: a longer one (a JSON section) wraps to it.
  const widths = rows.map(([, value]) => Bun.stringWidth(value));
  // …or as its longest unbreakable piece (a host, a path), so that is not cut where it can be kept whole.
  const pieces = rows.flatMap(([, value]) => (Bun.stringWidth(value) > MAX_VALUE_COLUMNS ? tokensOf(value).map((t) => Bun.stringWidth(t.trimEnd())) : []));
  const widest = Math.min(MAX_VALUE_COLUMNS, Math.max(...widths.filter((w) => w <= MAX_VALUE_COLUMNS), ...pieces, Math.min(...widths)));
  const fixed = INDENT.length + keyWidth + GAP.length;
  if (width - fixed < MIN_VALUE_COLUMNS + MIN_SOURCE_COLUMNS) {
    // Too narrow for three columns: each key on a row of its own, its value and source under it.
    const room = Math.max(width - UNDER.length, 8);
    return rows.flatMap(([key, value, source]) => [INDENT + key, ...[...breakValue(value, room), ...breakValue(source, room)].map((piece) => UNDER + piece)]);
  }
  // The value column gives way to the source column when the terminal is narrow.
  const valueWidth = Math.max(MIN_VALUE_COLUMNS, Math.min(MAX_VALUE_COLUMNS, widest, width - fixed - MIN_SOURCE_COLUMNS));
  const sourceWidth = width - fixed - valueWidth;
  return rows.flatMap(([key, value, source]) => {
    const values = breakValue(value, valueWidth);
    const sources = breakValue(source, sourceWidth);
    return Array.from({ length: Math.max(values.length, sources.length) }, (_, i) =>
      (INDENT + pad(i === 0 ? key : "", keyWidth) + pad(values[i] ?? "", valueWidth) + GAP + (sources[i] ?? "")).trimEnd(),
    );
  });
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - Bun.stringWidth(text)));
}

/** A value as pieces of at most `width` columns: broken after a comma or an opening bracket, or at a space; cut only where none comes. */
export function breakValue(value: string, width: number): string[] {
  if (Bun.stringWidth(value) <= width) return [value];
  const tokens = tokensOf(value);
  const pieces: string[] = [];
  let line = "";
  for (const token of tokens) {
    if (Bun.stringWidth(line + token.trimEnd()) <= width) {
      line += token;
      continue;
    }
    if (line.trim() !== "") pieces.push(line.trimEnd());
    line = token;
    // A token longer than the column (a long path, a URL) is cut into rows of the column's width.
    while (Bun.stringWidth(line.trimEnd()) > width) {
      const cut = Bun.sliceAnsi(line, 0, width);
      pieces.push(cut);
      line = line.slice(cut.length);
    }
  }
  if (line.trim() !== "") pieces.push(line.trimEnd());
  return pieces;
}

/**
 * A value's pieces that end at a break point: a space (dropped at a break), or, outside a JSON
 * string, a comma or an opening bracket ("[::1]:8080" is not broken after its "[").
 */
function tokensOf(value: string): string[] {
  const tokens: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && inString) i++;
    else if (c === '"') inString = !inString;
    else if ((!inString && (c === "," || c === "[" || c === "{")) || (/\s/.test(c) && !/\s/.test(value[i + 1] ?? ""))) {
      tokens.push(value.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < value.length) tokens.push(value.slice(start));
  return tokens;
}
