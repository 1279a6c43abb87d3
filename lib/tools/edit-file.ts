import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { writeWorkspaceFile } from "../fs/atomic-write.ts";
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
    v.description("Exact text to replace, including whitespace and indentation, copied from the file."),
  ),
  newString: v.pipe(v.string(), v.description("Text to put in its place (may be empty to delete).")),
  replaceAll: v.optional(v.pipe(v.boolean(), v.description("Replace every occurrence instead of requiring exactly one. Default false."))),
};

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty"), v.description("File to edit, relative to the working directory.")),
  ...editFields,
});

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replace an exact piece of text in an existing file. oldString must match the file byte for byte (read the file " +
    "first and copy from it, without read_file's line-number prefix) and must occur exactly once: include enough " +
    "surrounding lines to make it unique, or set replaceAll to change every occurrence (e.g. renaming a variable). " +
    "For several changes to one file use multi_edit; to create a file use write_file.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => input.path },
  defaultDecision: "ask",
  preview: (input, ctx) => previewEdits(ctx, input.path, [input]),
  precheck: async (input, ctx) => void (await planEdit(ctx, input)),
  async execute(input, ctx) {
    const { abs, shown, content, outcome } = await planEdit(ctx, input);
    await ctx.journal?.before(abs);
    await writeWorkspaceFile(abs, outcome.content);
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
