import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { writeConfined } from "../fs/confined-ops.ts";
import { formatLineChanges, unifiedDiff } from "../text/diff.ts";
import { applyEdits, editFailureReason, type Edit } from "./edit/apply-edit.ts";
import type { Where } from "../fs/workspace.ts";
import { defineTool } from "./define.ts";
import { editFields } from "./edit-file.ts";
import { loadEditTarget } from "./edit/edit-target.ts";
import { previewEdits } from "./edit/file-preview.ts";
import { plural } from "../text/lines.ts";

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty")),
  edits: v.pipe(
    v.array(v.object(editFields)),
    v.minLength(1, "edits must contain at least one edit"),
  ),
});

export const multiEditTool = defineTool({
  name: "multi_edit",
  description:
    "Several edit_file replacements in one file, same rules, applied in order, each to the text the ones before left. " +
    "All or nothing: if one fails, the file is untouched and the error names it.",
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
    writeConfined({ root: ctx.root, tool: "multi_edit" }, abs, outcome.content);
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
