import { applyEdits, editFailureReason, type Edit } from "./apply-edit.ts";
import type { PreviewContext, ToolPreview } from "../define.ts";
import { displayPath, resolveInWorkspace } from "../../fs/workspace.ts";
import { readConfined } from "../../fs/confined-ops.ts";

/** edit_file's and multi_edit's preview: the edits applied to the file as it is now. */
export function previewEdits(ctx: PreviewContext, path: string, edits: readonly Edit[]): ToolPreview {
  return previewChange(ctx, path, false, (before) => {
    const outcome = applyEdits(before, edits);
    if (outcome.type === "applied") return { after: outcome.content };
    return { failure: (edits.length > 1 ? `edit ${outcome.index + 1}: ` : "") + editFailureReason(outcome.outcome, "the file") };
  });
}

/** write_file's preview: the file as it is now (none yet is fine) and the content it would get. */
export function previewWrite(ctx: PreviewContext, path: string, content: string): ToolPreview {
  return previewChange(ctx, path, true, () => ({ after: content }));
}

function previewChange(
  ctx: PreviewContext,
  path: string,
  mayCreate: boolean,
  change: (before: string) => { after: string } | { failure: string },
): ToolPreview {
  let shown = path;
  let before: string | undefined;
  try {
    const abs = resolveInWorkspace(ctx, path);
    shown = displayPath(ctx, abs);
    const found = readConfined({ root: ctx.root }, abs);
    if (found.kind === "missing" && !mayCreate) return { type: "unavailable", path: shown, why: `${shown} does not exist` };
    if (found.kind === "dir" || found.kind === "other") return { type: "unavailable", path: shown, why: `${shown} is not a regular file` };
    if (found.kind === "file" && found.bytes) before = new TextDecoder().decode(found.bytes);
  } catch (error) {
    return { type: "unavailable", path: shown, why: error instanceof Error ? error.message : String(error) };
  }
  const outcome = change(before ?? "");
  if ("failure" in outcome) return { type: "fails", path: shown, why: outcome.failure };
  return { type: "change", path: shown, before, after: outcome.after };
}
