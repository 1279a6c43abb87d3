import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { writeConfined } from "../fs/confined-ops.ts";
import { formatLineChanges, unifiedDiff } from "../text/diff.ts";
import { applyEdit, editFailureReason } from "./edit/apply-edit.ts";
import { defineTool } from "./define.ts";
import { loadEditTarget } from "./edit/edit-target.ts";
import { previewEdits } from "./edit/file-preview.ts";
import { plural } from "../text/lines.ts";
import type { Where } from "../fs/workspace.ts";

export const editFields = {
  oldString: v.pipe(
    v.string(),
    v.minLength(1, "oldString must not be empty; to create a file or replace all of it use write_file"),
  ),
  newString: v.string(),
  replaceAll: v.optional(v.boolean()),
};

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty")),
  ...editFields,
});

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replace oldString with newString (may be empty) in a file. oldString is copied exactly from the file, indentation " +
    "included, and must occur once: add surrounding lines to make it unique, or set replaceAll to change every occurrence.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => input.path },
  defaultDecision: "ask",
  preview: (input, ctx) => previewEdits(ctx, input.path, [input]),
  precheck: async (input, ctx) => void (await planEdit(ctx, input)),
  async execute(input, ctx) {
    const { abs, shown, content, outcome } = await planEdit(ctx, input);
    await ctx.journal?.before(abs);
    writeConfined({ root: ctx.root, tool: "edit_file" }, abs, outcome.content);
    const changes = formatLineChanges(unifiedDiff(content, outcome.content));
    return {
      output: `Edited ${shown}: replaced ${plural(outcome.replacements, "occurrence")} (${changes} lines).`,
      summary: changes,
    };
  },
});

/** The file and the edit applied to it in memory; a ToolError when the edit cannot be made. */
async function planEdit(ctx: Where, input: { path: string; oldString: string; newString: string; replaceAll?: boolean | undefined }) {
  const target = await loadEditTarget(ctx, "edit_file", input.path);
  const outcome = applyEdit(target.content, input);
  if (outcome.type !== "applied") throw new ToolError(`edit_file: ${editFailureReason(outcome, target.shown)}`);
  return { ...target, outcome };
}
