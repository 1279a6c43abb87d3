/**
 * The apply_patch envelope OpenAI's GPT-5 and codex models are trained to write:
 *
 * ```
 * *** Begin Patch
 * *** Add File: path          then every line of the new file, each prefixed "+"
 * *** Delete File: path
 * *** Update File: path
 * *** Move to: new/path       (optional, right after Update File)
 * @@ optional anchor line     then " context", "-removed", "+added" lines; "*** End of File" pins a hunk to the end
 * *** End Patch
 * ```
 *
 * Parsed as leniently as OpenAI's reference parser: markers may carry surrounding whitespace, a
 * heredoc wrapper (`<<'EOF'` … `EOF`) is taken off, the first hunk of an update may omit its
 * `@@`, and an empty line inside a hunk is an empty context line. Pure.
 */

/** One line of a hunk: context (" "), removed ("-") or added ("+"). */
export type HunkLine = { mark: " " | "-" | "+"; text: string };

export type PatchChunk = {
  /** The `@@ …` anchor: a line (a function or class header) the chunk comes after. */
  anchor?: string;
  lines: HunkLine[];
  /** `*** End of File`: the old lines are at the end of the file. */
  atEnd: boolean;
  /** 1-based line of the patch where the chunk starts, for messages. */
  line: number;
};

export type PatchOp =
  | { type: "add"; path: string; content: string; line: number }
  | { type: "delete"; path: string; line: number }
  | { type: "update"; path: string; moveTo?: string; chunks: PatchChunk[]; line: number };

export type ParsedPatch = { ok: true; ops: PatchOp[] } | { ok: false; error: string };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const HEADERS = `"${ADD}<path>", "${UPDATE}<path>" or "${DELETE}<path>"`;

/** Parses the whole envelope; the first problem found is the error, naming its line. */
export function parsePatch(text: string): ParsedPatch {
  let lines = text.replace(/\r\n/g, "\n").trim().split("\n");
  if (lines.length >= 4 && /^<<['"]?EOF['"]?$/.test(lines[0]!.trim()) && lines.at(-1)!.trim().endsWith("EOF")) {
    lines = lines.slice(1, -1);
  }
  // Line numbers in messages count from the first line of the patch as the model sent it.
  const offset = text.replace(/\r\n/g, "\n").split("\n").findIndex((l) => l.trim() === BEGIN);
  const lineNo = (i: number) => i + 1 + Math.max(offset, 0);
  if (lines[0]?.trim() !== BEGIN) return fail(`the first line must be "${BEGIN}".`);
  if (lines.length < 2 || lines.at(-1)!.trim() !== END) return fail(`the last line must be "${END}".`);

  const body = lines.slice(1, -1);
  const ops: PatchOp[] = [];
  let i = 0;
  while (i < body.length) {
    const header = body[i]!.trim();
    if (header === "") {
      i++;
      continue;
    }
    const at = lineNo(i + 1);
    if (header.startsWith(ADD)) {
      const path = header.slice(ADD.length).trim();
      const content: string[] = [];
      i++;
      while (i < body.length && body[i]!.startsWith("+")) content.push(body[i++]!.slice(1));
      ops.push({ type: "add", path, content: content.length > 0 ? content.join("\n") + "\n" : "", line: at });
      continue;
    }
    if (header.startsWith(DELETE)) {
      ops.push({ type: "delete", path: header.slice(DELETE.length).trim(), line: at });
      i++;
      continue;
    }
    if (header.startsWith(UPDATE)) {
      const path = header.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (i < body.length && body[i]!.trim().startsWith(MOVE)) moveTo = body[i++]!.trim().slice(MOVE.length).trim();
      const chunks: PatchChunk[] = [];
      while (i < body.length) {
        const raw = body[i]!;
        if (raw.trim() === "") {
          i++; // blank lines between hunks and files
          continue;
        }
        if (raw.startsWith("*") && raw.trim() !== END_OF_FILE) break;
        const parsed = parseChunk(body, i, chunks.length === 0, lineNo);
        if ("error" in parsed) return fail(parsed.error);
        chunks.push(parsed.chunk);
        i = parsed.next;
      }
      if (chunks.length === 0) return fail(`line ${at}: "${UPDATE}${path}" has no hunks. Add "@@" hunks with the lines to change, or drop the section.`);
      ops.push({ type: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), chunks, line: at });
      continue;
    }
    return fail(`line ${at}: "${clipText(header)}" is not a file header. Each file starts with ${HEADERS}.`);
  }
  if (ops.length === 0) return fail("the patch changes no files. Put at least one file section between the Begin and End lines.");
  for (const op of ops) {
    if (op.path === "") return fail(`line ${op.line}: a file header without a path.`);
    if (op.type === "update" && op.moveTo === "") return fail(`line ${op.line + 1}: "${MOVE.trim()}" without a path.`);
  }
  return { ok: true, ops };
}

/** One hunk from `start`: an optional `@@` line, then context/removed/added lines. */
function parseChunk(
  body: readonly string[],
  start: number,
  first: boolean,
  lineNo: (i: number) => number,
): { chunk: PatchChunk; next: number } | { error: string } {
  let i = start;
  let anchor: string | undefined;
  const head = body[i]!;
  if (head.trim() === "@@") i++;
  else if (head.startsWith("@@ ")) {
    const text = head.slice(3);
    anchor = text.trim() === "" ? undefined : text;
    i++;
  } else if (!first) {
    return { error: `line ${lineNo(i + 1)}: expected a hunk starting with "@@", got "${clipText(head)}".` };
  }
  const chunk: PatchChunk = { ...(anchor !== undefined ? { anchor } : {}), lines: [], atEnd: false, line: lineNo(start + 1) };
  let count = 0;
  for (; i < body.length; i++) {
    const line = body[i]!;
    if (line.trim() === END_OF_FILE) {
      if (count === 0) break;
      chunk.atEnd = true;
      i++;
      break;
    }
    const mark = line[0];
    if (mark === undefined) chunk.lines.push({ mark: " ", text: "" });
    else if (mark === " " || mark === "-" || mark === "+") chunk.lines.push({ mark, text: line.slice(1) });
    else if (count === 0) {
      return { error: `line ${lineNo(i + 1)}: "${clipText(line)}" in a hunk: every line must start with " " (context), "-" (removed) or "+" (added).` };
    } else break; // the next hunk or file
    count++;
  }
  if (count === 0) return { error: `line ${lineNo(start + 1)}: a hunk with no lines. Give the context, "-" and "+" lines after "@@".` };
  return { chunk, next: i };
}

/** The lines a hunk expects in the file (context and removed), in order. */
export function oldLinesOf(chunk: Pick<PatchChunk, "lines">): string[] {
  return chunk.lines.filter((l) => l.mark !== "+").map((l) => l.text);
}

function fail(why: string): ParsedPatch {
  return { ok: false, error: `invalid patch: ${why}` };
}

function clipText(text: string): string {
  return text.length > 80 ? text.slice(0, 79) + "…" : text;
}
