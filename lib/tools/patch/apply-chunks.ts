import { oldLinesOf, type HunkLine, type PatchChunk } from "./parse.ts";
import { seekLines } from "./seek.ts";

export type ChunksOutcome =
  | { ok: true; content: string }
  /** `chunk` is the 0-based index of the hunk that did not apply; `why` says what was not found. */
  | { ok: false; chunk: number; why: string };

/**
 * An Update File section applied to `content` in memory: each hunk's anchor and old lines are
 * found in order (each search starts where the previous hunk ended), then every replacement is
 * made. Context lines keep the file's own text (a fuzzy match does not rewrite their whitespace).
 * A hunk with no old lines inserts after its anchor, or at the end of the file. The result
 * ends with a newline, as the reference does. A CRLF file is matched on its text and written back
 * with CRLF. Pure.
 */
export function applyChunks(content: string, chunks: readonly PatchChunk[]): ChunksOutcome {
  const crlf = content.includes("\r\n");
  const lines = (crlf ? content.replace(/\r\n/g, "\n") : content).split("\n");
  if (lines.at(-1) === "") lines.pop();
  const replacements: { at: number; remove: number; insert: readonly string[] }[] = [];
  let cursor = 0;
  for (const [index, chunk] of chunks.entries()) {
    if (chunk.anchor !== undefined) {
      const at = seekLines(lines, [chunk.anchor], cursor, false);
      if (at < 0) return { ok: false, chunk: index, why: `its "@@ ${chunk.anchor.trim()}" line was not found${after(cursor)}.` };
      cursor = at + 1;
    }
    let hunk: readonly HunkLine[] = chunk.lines;
    let old = oldLinesOf(chunk);
    if (old.length === 0) {
      replacements.push({ at: chunk.anchor !== undefined ? cursor : lines.length, remove: 0, insert: hunk.map((l) => l.text) });
      continue;
    }
    let at = seekLines(lines, old, cursor, chunk.atEnd);
    const last = hunk.at(-1);
    if (at < 0 && last?.mark === " " && last.text === "") {
      // A trailing blank context line the file does not have (the model's patch ended with one).
      hunk = hunk.slice(0, -1);
      old = old.slice(0, -1);
      at = seekLines(lines, old, cursor, chunk.atEnd);
    }
    if (at < 0) return { ok: false, chunk: index, why: notFound(lines, oldLinesOf(chunk), cursor) };
    replacements.push({ at, remove: old.length, insert: replacement(hunk, lines.slice(at, at + old.length)) });
    cursor = at + old.length;
  }
  for (const { at, remove, insert } of [...replacements].sort((a, b) => b.at - a.at)) lines.splice(at, remove, ...insert);
  const text = lines.join("\n") + "\n";
  return { ok: true, content: crlf ? text.replace(/\n/g, "\r\n") : text };
}

/** The new lines for a matched span: added lines as written, context lines as the file has them. */
function replacement(hunk: readonly HunkLine[], matched: readonly string[]): string[] {
  const out: string[] = [];
  let k = 0;
  for (const line of hunk) {
    if (line.mark === "+") out.push(line.text);
    else if (line.mark === " ") out.push(matched[k++]!);
    else k++;
  }
  return out;
}

function after(cursor: number): string {
  return cursor > 0 ? ` after line ${cursor}` : "";
}

/** What the model reads when a hunk's old lines are not in the file: them, and where the closest line is. */
function notFound(lines: readonly string[], old: readonly string[], cursor: number): string {
  const shown = old.slice(0, 6).map((line) => `  ${line}`);
  if (old.length > 6) shown.push(`  … (${old.length - 6} more)`);
  const probe = old.find((line) => line.trim() !== "")?.trim();
  const near = probe === undefined ? -1 : lines.findIndex((line) => line.trim() === probe);
  const hint =
    near >= 0
      ? ` Its first line is at line ${near + 1}, but the lines around it differ${near < cursor ? " (and it comes before the previous hunk: hunks must be in file order)" : ""}.`
      : "";
  return `these lines (context and "-" lines) were not found${after(cursor)}:\n${shown.join("\n")}\n${hint}`.trimEnd();
}
