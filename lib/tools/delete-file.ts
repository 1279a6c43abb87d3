import * as v from "valibot";
import { looksBinary } from "../fs/binary.ts";
import { countLines, plural } from "../text/lines.ts";
import { defineTool, type ToolPreview } from "./define.ts";
import { fileOperand, regularFile } from "./move-file.ts";
import type { Where } from "../fs/workspace.ts";
import { readConfined, unlinkConfined } from "../fs/confined-ops.ts";

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty")),
});

export const deleteFileTool = defineTool({
  name: "delete_file",
  description: "Delete one file; refuses folders and secrets files.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => input.path, readsContent: true },
  defaultDecision: "ask",
  preview(input, ctx): ToolPreview {
    try {
      const { abs, shown } = fileOperand(ctx, input.path, "delete_file");
      const found = readConfined({ root: ctx.root, tool: "delete_file" }, abs);
      if (found.kind !== "file" || !found.bytes) return { type: "unavailable", path: shown, why: `${shown} is not a file that can be deleted` };
      const bytes = found.bytes;
      return { type: "delete", path: shown, before: looksBinary(bytes) ? undefined : new TextDecoder().decode(bytes) };
    } catch (error) {
      return { type: "unavailable", path: input.path, why: error instanceof Error ? error.message : String(error) };
    }
  },
  precheck: async (input, ctx) => void (await deletable(ctx, input.path)),
  async execute(input, ctx) {
    const { abs, shown } = await deletable(ctx, input.path);
    const where = { root: ctx.root, tool: "delete_file" };
    const bytes = readConfined(where, abs).bytes ?? new Uint8Array();
    await ctx.journal?.before(abs);
    unlinkConfined(where, abs);
    const what = looksBinary(bytes) ? plural(bytes.length, "byte") : plural(countLines(new TextDecoder().decode(bytes)), "line");
    return { output: `Deleted ${shown} (${what}).`, summary: `deleted, ${what}` };
  },
});

/** The file delete_file would remove: a regular file inside the workspace, not a secrets file. */
async function deletable(ctx: Where, path: string): Promise<{ abs: string; shown: string }> {
  const target = fileOperand(ctx, path, "delete_file");
  regularFile(ctx, target.abs, target.shown, "delete_file");
  return target;
}
