import { readFileSync } from "node:fs";
import * as v from "valibot";
import type { AnyTool } from "../../lib/tools/define.ts";
import { applyEdits, editFailureReason, type Edit } from "../../lib/tools/apply-edit.ts";
import { displayPath, resolveInWorkspace } from "../../lib/tools/workspace.ts";
import { sanitize } from "./event-view.ts";
import type { Theme } from "./theme.ts";
import { unifiedDiff, type DiffLine } from "../../lib/text/diff.ts";

/** Diff lines shown in an approval before the rest is summarised. */
const MAX_DIFF_LINES = 80;
const INDENT = "    ";

type Where = { root: string; cwd: string };

/**
 * What the approval prompt shows above the question: `edit_file wants to run: src/a.ts  +1 -1`
 * and the coloured diff the call would make, or the command for bash. Reads the file to compute
 * the diff but never writes. A call that cannot be previewed (bad input, missing file) says why:
 * the tool itself will report the same failure to the model if it is allowed.
 */
export function previewCall(tool: AnyTool, input: unknown, subject: string, where: Where, theme: Theme): string[] {
  const head = `${theme.bold(tool.name)} wants to run`;
  const parsed = v.safeParse(tool.schema, input);
  if (!parsed.success) return [`${head}: ${sanitize(subject)}`, theme.dim(`${INDENT}(its arguments are invalid; the tool will refuse them)`)];
  const args = parsed.output as Record<string, unknown>;
  switch (tool.name) {
    case "bash": {
      const lines = sanitize(String(args.command)).split("\n");
      return lines.length === 1 ? [`${head}: ${lines[0]}`] : [`${head}:`, ...lines.map((l) => INDENT + l)];
    }
    case "edit_file":
      return fileChange(head, String(args.path), where, theme, (content) => applyAll(content, [args as unknown as Edit]));
    case "multi_edit":
      return fileChange(head, String(args.path), where, theme, (content) => applyAll(content, args.edits as Edit[]));
    case "write_file":
      return fileChange(head, String(args.path), where, theme, () => ({ content: String(args.content) }), true);
    default: {
      const json = JSON.stringify(input) ?? "";
      return [`${head}: ${sanitize(subject)}`, theme.dim(INDENT + (json.length > 300 ? json.slice(0, 299) + "…" : json))];
    }
  }
}

function fileChange(
  head: string,
  path: string,
  where: Where,
  theme: Theme,
  change: (content: string) => { content: string } | { failure: string },
  mayCreate = false,
): string[] {
  let shown = path;
  let before: string | undefined;
  try {
    const abs = resolveInWorkspace(where, path);
    shown = displayPath(where, abs);
    before = readFileSync(abs, "utf8");
  } catch (error) {
    if (!mayCreate || (error as NodeJS.ErrnoException).code !== "ENOENT") {
      return [`${head}: ${sanitize(shown)}`, theme.dim(`${INDENT}(no preview: ${error instanceof Error ? error.message : String(error)})`)];
    }
  }
  const after = change(before ?? "");
  if ("failure" in after) return [`${head}: ${sanitize(shown)}`, theme.warn(`${INDENT}this edit will fail: ${after.failure}`)];
  const diff = unifiedDiff(before ?? "", after.content);
  const counts = `${theme.added(`+${diff.added}`)} ${theme.removed(`-${diff.removed}`)}`;
  const label = before === undefined ? `${sanitize(shown)} (new file)` : sanitize(shown);
  const body = diff.lines.slice(0, MAX_DIFF_LINES).map((line) => INDENT + paint(line, theme));
  if (diff.lines.length > MAX_DIFF_LINES) body.push(theme.dim(`${INDENT}… ${diff.lines.length - MAX_DIFF_LINES} more diff lines`));
  if (diff.lines.length === 0) body.push(theme.dim(`${INDENT}(no change)`));
  return [`${head}: ${label}  ${counts}`, ...body];
}

function applyAll(content: string, edits: Edit[]): { content: string } | { failure: string } {
  const outcome = applyEdits(content, edits);
  if (outcome.type === "applied") return { content: outcome.content };
  return { failure: (edits.length > 1 ? `edit ${outcome.index + 1}: ` : "") + editFailureReason(outcome.outcome, "the file") };
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
