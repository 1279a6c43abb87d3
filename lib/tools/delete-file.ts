import { readFile, rm } from "node:fs/promises";
import * as v from "valibot";
import { looksBinary } from "../fs/binary.ts";
import { countLines, plural } from "../text/lines.ts";
import { defineTool, type ToolPreview } from "./define.ts";
import { fileOperand, regularFile } from "./move-file.ts";
import type { Where } from "../fs/workspace.ts";
import { readFileSync } from "node:fs";

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
      const bytes = readFileSync(abs);
      return { type: "delete", path: shown, before: looksBinary(bytes) ? undefined : new TextDecoder().decode(bytes) };
    } catch (error) {
      return { type: "unavailable", path: input.path, why: error instanceof Error ? error.message : String(error) };
    }
  },
  precheck: async (input, ctx) => void (await deletable(ctx, input.path)),
  async execute(input, ctx) {
    const { abs, shown } = await deletable(ctx, input.path);
    const bytes = await readFile(abs);
    await ctx.journal?.before(abs);
    await rm(abs);
    const what = looksBinary(bytes) ? plural(bytes.length, "byte") : plural(countLines(new TextDecoder().decode(bytes)), "line");
    return { output: `Deleted ${shown} (${what}).`, summary: `deleted, ${what}` };
  },
});

/** The file delete_file would remove: a regular file inside the workspace, not a secrets file. */
async function deletable(ctx: Where, path: string): Promise<{ abs: string; shown: string }> {
  const target = fileOperand(ctx, path, "delete_file");
  await regularFile(target.abs, target.shown, "delete_file");
  return target;
}
