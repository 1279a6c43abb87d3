import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { writeWorkspaceFile } from "../fs/atomic-write.ts";
import { formatLineChanges, unifiedDiff } from "../text/diff.ts";
import { applyEdits, editFailureReason, type Edit } from "./edit/apply-edit.ts";
import type { Where } from "../fs/workspace.ts";
import { defineTool } from "./define.ts";
import { editFields } from "./edit-file.ts";
import { loadEditTarget } from "./edit/edit-target.ts";
import { previewEdits } from "./edit/file-preview.ts";
import { plural } from "../text/lines.ts";

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty"), v.description("File to edit, relative to the working directory.")),
  edits: v.pipe(
    v.array(v.object(editFields)),
    v.minLength(1, "edits must contain at least one edit"),
    v.description("Edits applied one after another, each to the result of the previous one."),
  ),
});

export const multiEditTool = defineTool({
  name: "multi_edit",
  description:
    "Make several exact-text replacements in one file in a single call. Edits apply in order, each to the text " +
    "left by the ones before it, with the same rules as edit_file (exact match, unique unless replaceAll). All or " +
    "nothing: if any edit fails, the file is left untouched and the error names the failing edit. Prefer this over " +
    "several edit_file calls on the same file; make sure earlier edits do not change text a later one looks for.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => input.path },
  defaultDecision: "ask",
  digest: { note: (input) => `(${plural(input.edits.length, "edit")})` },
  preview: (input, ctx) => previewEdits(ctx, input.path, input.edits),
  precheck: async (input, ctx) => void (await planEdits(ctx, input)),
  async execute(input, ctx) {
    const { abs, shown, content, outcome } = await planEdits(ctx, input);
    const total = input.edits.length;
    await ctx.journal?.before(abs);
    await writeWorkspaceFile(abs, outcome.content);
    const changes = formatLineChanges(unifiedDiff(content, outcome.content));
    return {
      output: `Edited ${shown}: applied ${plural(total, "edit")} (${plural(outcome.replacements, "replacement")}, ${changes} lines).`,
      summary: changes,
    };
  },
});

/** The file and every edit applied to it in memory; a ToolError naming the first edit that cannot be made. */
async function planEdits(ctx: Where, input: { path: string; edits: readonly Edit[] }) {
  const target = await loadEditTarget(ctx, "multi_edit", input.path);
  const total = input.edits.length;
  const outcome = applyEdits(target.content, input.edits);
  if (outcome.type === "failed") {
    const { index } = outcome;
    const earlier = index > 0 ? ` Edits 1-${index} were applied before it, in memory only: check they did not change this text.` : "";
    throw new ToolError(
      `multi_edit: edit ${index + 1} of ${total} failed: ${editFailureReason(outcome.outcome, target.shown)}${earlier} ` +
        `No changes were written; fix that edit and send all of them again.`,
    );
  }
  return { ...target, outcome };
}
