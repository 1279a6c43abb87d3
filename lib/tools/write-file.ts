import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { statConfined, writeConfined } from "../fs/confined-ops.ts";
import { defineTool } from "./define.ts";
import { previewWrite } from "./edit/file-preview.ts";
import { countLines, plural } from "../text/lines.ts";
import type { Where } from "../fs/workspace.ts";
import { writeTarget } from "./edit/edit-target.ts";

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty")),
  content: v.pipe(v.string(), v.description("The whole new content.")),
});

export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Create a file (and its folders) or replace all of one. To change part of a file use edit_file: it cannot lose what you did not mean to touch.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => input.path },
  defaultDecision: "ask",
  preview: (input, ctx) => previewWrite(ctx, input.path, input.content),
  precheck: (input, ctx) => void writablePath(ctx, input.path),
  async execute(input, ctx) {
    const { abs, shown } = writablePath(ctx, input.path);
    await ctx.journal?.before(abs);
    const { existed } = writeConfined({ root: ctx.root, tool: "write_file" }, abs, input.content);
    const lines = plural(countLines(input.content), "line");
    return existed
      ? { output: `Overwrote ${shown} (${lines}).`, summary: `overwrote, ${lines}` }
      : { output: `Created ${shown} (${lines}).`, summary: `created, ${lines}` };
  },
});

/** Where write_file would write: inside the workspace, not a directory, not a secrets file. */
function writablePath(ctx: Where, path: string): { abs: string; shown: string } {
  const target = writeTarget(ctx, "write_file", path);
  if (statConfined({ root: ctx.root, tool: "write_file" }, target.abs).kind === "dir") {
    throw new ToolError(`write_file: ${target.shown} is a directory. Give the path of a file inside it.`);
  }
  return target;
}
