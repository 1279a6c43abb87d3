import * as v from "valibot";
import type { AnyTool, ToolPreview } from "../../lib/tools/define.ts";
import { sanitize } from "../../lib/render.ts";
import { createTheme, type Theme } from "./theme.ts";
import { unifiedDiff, type DiffLine } from "../../lib/text/diff.ts";

/** Diff lines shown in an approval before the rest is summarised. */
const MAX_DIFF_LINES = 80;
/** A command's lines shown in an approval before the rest is summarised. */
const MAX_COMMAND_LINES = 40;
/** Characters of a call's arguments shown in an approval before the rest is cut. */
const MAX_ARGUMENT_CHARS = 300;

/**
 * A question's preview, and when it was cut, all of it as plain lines (the `d` key's pager, diff
 * lines numbered as in the preview) with what the key shows: `whole diff`, `whole command`, `all arguments`.
 */
export type Preview = { lines: string[]; full?: { label: string; lines: string[] } };
const INDENT = "    ";

type Where = { root: string; cwd: string };

/**
 * What the approval prompt shows above the question: `edit_file wants to edit: src/a.ts  +1 -1`
 * and the coloured diff the tool's preview says the call would make, the command line for a
 * command, or the subject and the arguments. Never writes. A call that cannot be previewed (bad
 * input, missing file) says why: the tool itself will report the same failure to the model if
 * it is allowed.
 */
export function previewCall(tool: AnyTool, input: unknown, subject: string, where: Where, theme: Theme): string[] {
  return previewOf(tool, input, subject, where, theme).lines;
}

/** previewCall's lines, and all of it when they were cut (Preview). */
export function previewOf(tool: AnyTool, input: unknown, subject: string, where: Where, theme: Theme): Preview {
  const plain = (lines: string[]): Preview => ({ lines });
  const wants = (verb: string) => `${theme.bold(tool.name)} wants to ${verb}`;
  const head = wants(tool.subject.kind === "path" && tool.mutates ? "edit" : "run");
  const parsed = v.safeParse<v.GenericSchema>(tool.schema, input);
  if (!parsed.success) return plain([`${head}: ${sanitize(subject)}`, theme.dim(`${INDENT}(its arguments are invalid; the tool will refuse them)`)]);
  if (tool.preview) {
    const preview = tool.preview(parsed.output, where);
    const previews = Array.isArray(preview) ? preview : [preview as ToolPreview];
    const lines = Array.isArray(preview) ? fileChanges(wants(preview.length === 1 ? verbFor(preview[0]!) : "edit"), preview, theme) : fileChange(wants(verbFor(preview as ToolPreview)), preview as ToolPreview, theme);
    const cut = previews.some((p) => (diffOf(p)?.lines.length ?? 0) > MAX_DIFF_LINES);
    if (!cut) return plain(lines);
    const plainTheme = createTheme(false);
    const whole = Array.isArray(preview) ? fileChanges(wants(previews.length === 1 ? verbFor(previews[0]!) : "edit"), previews, plainTheme, Infinity) : fileChange(wants(verbFor(previews[0]!)), previews[0]!, plainTheme, Infinity);
    return { lines, full: { label: "whole diff", lines: whole.map((l) => Bun.stripANSI(l)) } };
  }
  if (tool.asks) {
    const asked = tool.asks(parsed.output);
    return plain([`${theme.bold(asked.by ?? tool.name)} wants to ${asked.verb} ${sanitize(asked.what)}`]);
  }
  if (tool.subject.kind === "command") {
    const lines = sanitize(tool.subject.of(parsed.output)).split("\n");
    if (lines.length === 1) return plain([`${head}: ${lines[0]}`]);
    const all = [`${Bun.stripANSI(head)}:`, ...lines.map((l) => INDENT + l)];
    if (lines.length <= MAX_COMMAND_LINES) return plain([`${head}:`, ...lines.map((l) => INDENT + l)]);
    const shown = [`${head}:`, ...lines.slice(0, MAX_COMMAND_LINES).map((l) => INDENT + l), theme.dim(`${INDENT}… ${lines.length - MAX_COMMAND_LINES} more lines`)];
    return { lines: shown, full: { label: "whole command", lines: all } };
  }
  const json = JSON.stringify(input) ?? "";
  const shown = [`${head}: ${sanitize(subject)}`, theme.dim(INDENT + (json.length > MAX_ARGUMENT_CHARS ? json.slice(0, MAX_ARGUMENT_CHARS - 1) + "…" : json))];
  if (json.length <= MAX_ARGUMENT_CHARS) return plain(shown);
  const pretty = sanitize(JSON.stringify(input, null, 2) ?? "").split("\n");
  return { lines: shown, full: { label: "all arguments", lines: [`${Bun.stripANSI(head)}: ${sanitize(subject)}`, ...pretty.map((l) => INDENT + l)] } };
}


/** What a file tool's call does, for its heading: `write_file wants to write: a.txt (new file)`. */
function verbFor(preview: ToolPreview): string {
  if (preview.type === "move") return "move";
  if (preview.type === "delete") return "delete";
  if (preview.type === "change" && preview.before === undefined) return "write";
  return "edit";
}

/**
 * A call that changes several files (apply_patch): one heading with the totals, then each file
 * under its own line with its diff, so nothing it touches is left unshown.
 */
function fileChanges(head: string, previews: readonly ToolPreview[], theme: Theme, maxLines = MAX_DIFF_LINES): string[] {
  if (previews.length === 1) return fileChange(head, previews[0]!, theme, maxLines);
  const sections = previews.map((preview) => fileChange(undefined, preview, theme, maxLines));
  const totals = previews.reduce(
    (sum, p) => {
      const diff = diffOf(p);
      return diff ? { added: sum.added + diff.added, removed: sum.removed + diff.removed } : sum;
    },
    { added: 0, removed: 0 },
  );
  return [`${head}: ${previews.length} files  ${theme.added(`+${totals.added}`)} ${theme.removed(`-${totals.removed}`)}`, ...sections.flat()];
}

function diffOf(preview: ToolPreview) {
  if (preview.type === "change" || preview.type === "move") return unifiedDiff(preview.before ?? "", preview.after);
  if (preview.type === "delete") return unifiedDiff(preview.before ?? "", "");
  return undefined;
}

/** One file's part of a preview; without `head` it is a section of a multi-file preview (`  a.txt  +1 -1`). */
function fileChange(head: string | undefined, preview: ToolPreview, theme: Theme, maxLines = MAX_DIFF_LINES): string[] {
  const shown = sanitize(preview.path);
  const title = (label: string) => (head === undefined ? `  ${label}` : `${head}: ${label}`);
  switch (preview.type) {
    case "unavailable":
      return [title(shown), theme.dim(`${INDENT}(no preview: ${preview.why})`)];
    case "fails":
      return [title(shown), theme.warn(`${INDENT}this edit will fail: ${preview.why}`)];
    case "change":
    case "move":
    case "delete": {
      const diff = diffOf(preview)!;
      const counts = `${theme.added(`+${diff.added}`)} ${theme.removed(`-${diff.removed}`)}`;
      const label =
        preview.type === "move"
          ? `${shown} → ${sanitize(preview.to)}`
          : preview.type === "delete"
            ? `${shown} (delete)`
            : preview.before === undefined
              ? `${shown} (new file)`
              : shown;
      const width = String(Math.max(0, ...diff.lines.map((l) => l.no ?? 0))).length;
      const body = diff.lines.slice(0, maxLines).map((line) => INDENT + numbered(line, width, theme));
      if (diff.lines.length > maxLines) body.push(theme.dim(`${INDENT}… ${diff.lines.length - maxLines} more diff lines · d shows the whole diff`));
      if (diff.lines.length === 0) body.push(theme.dim(`${INDENT}${preview.type === "move" ? "(content unchanged)" : preview.type === "delete" && preview.before === undefined ? "(binary or unreadable)" : "(no change)"}`));
      const plainMove = preview.type === "move" && diff.lines.length === 0;
      return [title(plainMove ? label : `${label}  ${counts}`), ...body];
    }
    default:
      return preview satisfies never;
  }
}

/** A diff line after its line number (the old file's for a removed line, else the new one's), the numbers right-aligned in `width`. */
function numbered(line: DiffLine, width: number, theme: Theme): string {
  const no = line.no === undefined ? " ".repeat(width) : String(line.no).padStart(width);
  return `${theme.dim(no)} ${paint(line, theme)}`;
}

/** One diff line coloured for the screen: hunk headers, `+added`, `-removed`, ` context` (dim). */
export function paint(line: DiffLine, theme: Theme): string {
  const text = sanitize(line.text.replace(/\r$/, "")); // a CRLF file's lines keep their \r in the diff
  switch (line.kind) {
    case "hunk":
      return theme.hunk(text);
    case "added":
      return theme.added(`+${text}`);
    case "removed":
      return theme.removed(`-${text}`);
    case "context":
      return theme.dim(` ${text}`);
    default:
      return line.kind satisfies never;
  }
}
