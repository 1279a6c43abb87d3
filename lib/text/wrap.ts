/**
 * Word wrapping for the terminal, by display width and aware of colour codes (a style open at a
 * break is closed and reopened on the next row, so every row stands alone). Pure.
 */

/** Marks that start a line and hang its continuation rows under the text: `✗ read_file: …`. */
const MARKS = new Set(["→", "✓", "✗", "⊘", "■", "•", "›", "✻", "…", "-", "*", "│"]);

/**
 * What stands in a diff line's marker column on the rows its text continues on, in the line's
 * colour: a wrapped `+` or `-` line can be read neither as a line of its own nor as context.
 */
export const DIFF_CONTINUED = "↪";

/** Labels that start the loop's notes and errors (`note: provider returned 500: …`): their continuation rows hang under the text, as a mark's do. */
const LABEL = /^(note|error): (?=\S)/;

/**
 * One line as rows of at most `width` columns, broken at spaces (a word longer than a row is cut).
 * Continuation rows are indented under the text: past the line's leading spaces and, when the
 * line starts with a mark and a space (`→ `, `✓ `, `• `) or a note's label (`note: `, `error: `),
 * past the mark or the label too. A diff line (its
 * first character past the leading spaces `+` or `-`) wraps as diffRows does. A line that fits
 * is returned as it is. `opts.hang`: continuation rows are indented at least this far
 * (an approval's lines, so a wrapped command cannot be read as a line of its own).
 */
export function wrapLine(line: string, width: number, opts: { hang?: number } = {}): string[] {
  const cols = Math.max(width, 8);
  if (Bun.stringWidth(line) <= cols) return [line];
  const plain = Bun.stripANSI(line);
  const lead = /^ */.exec(plain)![0].length;
  const [mark] = plain.slice(lead);
  if (isDiffLine(plain, lead)) return diffRows(line, lead, cols);
  // A numbered diff line (an approval's preview: `  12 +text`): the same, after its number.
  const numbered = /^ *\d+ (?=[+-][^+-]| )/.exec(plain)?.[0].length;
  if (numbered !== undefined && (plain[numbered] === " " || isDiffLine(plain, numbered))) return diffRows(line, numbered, cols);
  let hang = lead;
  if (mark && MARKS.has(mark) && plain[lead + mark.length] === " ") hang += Bun.stringWidth(mark) + 1;
  else hang += LABEL.exec(plain.slice(lead))?.[0].length ?? 0;
  if (hang > cols / 2) hang = Math.min(lead, Math.floor(cols / 2));
  const prefix = Bun.sliceAnsi(line, 0, hang);
  const body = Bun.sliceAnsi(line, hang);
  return wrapHanging(prefix, " ".repeat(Math.max(hang, Math.min(opts.hang ?? 0, Math.floor(cols / 2)))), body, cols);
}

/**
 * Whether the line (past `lead` spaces) is an added or removed line of a diff: `+` or `-` and
 * then its text. Not a flag or a rule (`--yolo: …`, `---`, `++`), and not a list item (`- item`:
 * a dash, one space, a word); a removed line indented by one space alone reads as an item too.
 */
function isDiffLine(plain: string, lead: number): boolean {
  const mark = plain[lead];
  if (mark !== "+" && mark !== "-") return false;
  const next = plain[lead + 1];
  if (next === mark) return false;
  return !(mark === "-" && next === " " && /\S/.test(plain[lead + 2] ?? ""));
}

/**
 * A diff line `+text` or `-text` (after `lead` spaces) as rows of `cols` columns: the text
 * exactly as it is, every space kept (a Python line's indentation is part of the change), broken
 * at spaces where it can be (the one space a row breaks at is not shown); each continuation row
 * has DIFF_CONTINUED in the marker column, in the marker's colour, then the text's own
 * indentation (while it leaves half the row), so wrapped code keeps its shape.
 */
function diffRows(line: string, lead: number, cols: number): string[] {
  const indent = " ".repeat(lead);
  const head = Bun.sliceAnsi(line, 0, lead); // the leading spaces, or a numbered line's number
  const marker = Bun.sliceAnsi(line, lead, lead + 1);
  const continued = marker.replace(/[+-]/, DIFF_CONTINUED);
  const text = Bun.sliceAnsi(line, lead + 1);
  const own = /^ */.exec(Bun.stripANSI(text))![0].length;
  const room = Math.max(cols - lead - 1, 4);
  const hang = own <= room / 2 ? own : 0;
  // The first row as wide as it can be; the rest under the text's own indentation.
  const first = Bun.wrapAnsi(text, room, { hard: true, trim: false }).split("\n")[0]!;
  const rest = Bun.sliceAnsi(text, Bun.stringWidth(first));
  if (Bun.stripANSI(rest) === "") return [head + marker + first];
  // A row that starts with the one space the line broke at: the space is the break, not text.
  const unbroken = (row: string) => (/^ \S/.test(Bun.stripANSI(row)) ? Bun.sliceAnsi(row, 1) : row);
  const tail = Bun.wrapAnsi(unbroken(rest), Math.max(room - hang, 4), { hard: true, trim: false }).split("\n");
  return [head + marker + first, ...tail.map((row) => indent + continued + " ".repeat(hang) + unbroken(row))];
}

/** Every line of `text` wrapped (see wrapLine). */
export function wrapText(text: string, width: number, opts: { hang?: number } = {}): string[] {
  return text.split("\n").flatMap((line) => wrapLine(line, width, opts));
}

/**
 * `body` wrapped at word boundaries into rows of `width` columns: the first row starts with
 * `first`, the rest with `rest` (the two should be the same width). Always at least one row.
 */
export function wrapHanging(first: string, rest: string, body: string, width: number): string[] {
  const room = Math.max(width - Math.max(Bun.stringWidth(first), Bun.stringWidth(rest)), 4);
  const rows = Bun.wrapAnsi(body, room, { hard: true }).split("\n");
  return rows.map((row, i) => (i === 0 ? first : rest) + row);
}

/**
 * A question for the user (`Overwrite it? y overwrite · n cancel`) wrapped like wrapHanging, its
 * choices (what follows the last "? ") kept whole: on the last row when they fit there, else on a
 * row of their own, so no choice is split between two rows. Choices longer than a row wrap too.
 */
export function wrapQuestion(question: string, width: number): string[] {
  const at = question.lastIndexOf("? ");
  const choices = question.slice(at + 2);
  // Choices too long for a row of their own wrap with the rest.
  if (at < 0 || Bun.stringWidth(choices) + 2 > width) return wrapHanging("", "  ", question, width);
  const rows = wrapHanging("", "  ", question.slice(0, at + 1), width);
  const last = rows.at(-1)!;
  // Measured with a trailing space, if any: the cursor waits after it, on the same row.
  if (Bun.stringWidth(last) + 1 + Bun.stringWidth(choices) <= width) rows[rows.length - 1] = `${last} ${choices}`;
  else rows.push(`  ${choices}`);
  return rows;
}

/**
 * A line of code as rows of `width` columns: the first after `first`, the rest after `continued`
 * (a mark saying the line goes on, the same width), then the code's own indentation (while it
 * leaves half the row), so wrapped code keeps its shape. Rows break at spaces, every other space
 * kept; only a token longer than a row is cut (`RangeError(\`size` / `must be positive`, never
 * `size m` / `ust be`).
 */
export function wrapCode(first: string, continued: string, body: string, width: number): string[] {
  const room = Math.max(width - Math.max(Bun.stringWidth(first), Bun.stringWidth(continued)), 4);
  if (Bun.stringWidth(body) <= room) return [first + body];
  const own = /^ */.exec(Bun.stripANSI(body))![0].length;
  const hang = own <= room / 2 ? own : 0;
  const head = Bun.wrapAnsi(body, room, { hard: true, trim: false }).split("\n")[0]!;
  const rest = Bun.sliceAnsi(body, Bun.stringWidth(head));
  if (Bun.stripANSI(rest) === "") return [first + head];
  // A row that starts with the one space the line broke at: the space is the break, not code.
  const unbroken = (row: string) => (/^ \S/.test(Bun.stripANSI(row)) ? Bun.sliceAnsi(row, 1) : row);
  const tail = Bun.wrapAnsi(unbroken(rest), Math.max(room - hang, 4), { hard: true, trim: false }).split("\n");
  return [first + head, ...tail.map((row) => continued + " ".repeat(hang) + unbroken(row))];
}

/** A row cut to `width` columns with "…" at the end when it is longer. */
export function fitRow(row: string, width: number): string {
  return Bun.stringWidth(row) > width ? Bun.sliceAnsi(row, 0, Math.max(width, 2), { ellipsis: "…" }) : row;
}
