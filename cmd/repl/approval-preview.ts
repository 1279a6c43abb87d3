import * as v from "valibot";
import type { AnyTool, ToolPreview } from "../../lib/tools/define.ts";
import { sanitize } from "../../lib/render.ts";
import type { Theme } from "./theme.ts";
import { unifiedDiff, type DiffLine } from "../../lib/text/diff.ts";

/** Diff lines shown in an approval before the rest is summarised. */
const MAX_DIFF_LINES = 80;
const INDENT = "    ";

type Where = { root: string; cwd: string };

/**
 * What the approval prompt shows above the question: `edit_file wants to run: src/a.ts  +1 -1`
 * and the coloured diff the tool's preview says the call would make, the command line for a
 * command, or the subject and the arguments. Never writes. A call that cannot be previewed (bad
 * input, missing file) says why: the tool itself will report the same failure to the model if
 * it is allowed.
 */
export function previewCall(tool: AnyTool, input: unknown, subject: string, where: Where, theme: Theme): string[] {
  const head = `${theme.bold(tool.name)} wants to run`;
  const parsed = v.safeParse<v.GenericSchema>(tool.schema, input);
  if (!parsed.success) return [`${head}: ${sanitize(subject)}`, theme.dim(`${INDENT}(its arguments are invalid; the tool will refuse them)`)];
  if (tool.preview) return fileChange(head, tool.preview(parsed.output, where), theme);
  if (tool.subject.kind === "command") {
    const lines = sanitize(tool.subject.of(parsed.output)).split("\n");
    return lines.length === 1 ? [`${head}: ${lines[0]}`] : [`${head}:`, ...lines.map((l) => INDENT + l)];
  }
  const json = JSON.stringify(input) ?? "";
  return [`${head}: ${sanitize(subject)}`, theme.dim(INDENT + (json.length > 300 ? json.slice(0, 299) + "…" : json))];
}

function fileChange(head: string, preview: ToolPreview, theme: Theme): string[] {
  const shown = sanitize(preview.path);
  switch (preview.type) {
    case "unavailable":
      return [`${head}: ${shown}`, theme.dim(`${INDENT}(no preview: ${preview.why})`)];
    case "fails":
      return [`${head}: ${shown}`, theme.warn(`${INDENT}this edit will fail: ${preview.why}`)];
    case "change": {
      const diff = unifiedDiff(preview.before ?? "", preview.after);
      const counts = `${theme.added(`+${diff.added}`)} ${theme.removed(`-${diff.removed}`)}`;
      const label = preview.before === undefined ? `${shown} (new file)` : shown;
      const body = diff.lines.slice(0, MAX_DIFF_LINES).map((line) => INDENT + paint(line, theme));
      if (diff.lines.length > MAX_DIFF_LINES) body.push(theme.dim(`${INDENT}… ${diff.lines.length - MAX_DIFF_LINES} more diff lines`));
      if (diff.lines.length === 0) body.push(theme.dim(`${INDENT}(no change)`));
      return [`${head}: ${label}  ${counts}`, ...body];
    }
    default:
      return preview satisfies never;
  }
}

function paint(line: DiffLine, theme: Theme): string {
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
