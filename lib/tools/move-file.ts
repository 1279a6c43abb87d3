import { lstatConfined, renameConfined } from "../fs/confined-ops.ts";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { describeMissing } from "../fs/missing-path.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace, type Where } from "../fs/workspace.ts";
import { defineTool, type ToolPreview } from "./define.ts";

const schema = v.object({
  from: v.pipe(v.string(), v.minLength(1, "from must not be empty")),
  to: v.pipe(v.string(), v.minLength(1, "to must not be empty")),
});

/** Resolves one end of a move or a deletion; refuses secrets files (moving one would let it be read). */
export function fileOperand(ctx: Where, path: string, tool: string): { abs: string; shown: string } {
  const abs = resolveInWorkspace(ctx, path, tool);
  const shown = displayPath(ctx, abs);
  if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) {
    throw new ToolError(`${tool}: ${shown} is a secrets file (.env, .env.*, *.pem), which shiro does not move or delete. Ask the user to do it.`);
  }
  return { abs, shown };
}

/** The existing regular file at `abs`, or a ToolError saying why it is not one. */
export function regularFile(ctx: Where, abs: string, shown: string, tool: string): void {
  const stats = lstatConfined({ root: ctx.root, tool }, abs);
  if (!stats) throw new ToolError(`${tool}: ${describeMissing(ctx.root, abs, shown)}`);
  if (stats.isDirectory()) throw new ToolError(`${tool}: ${shown} is a directory; ${tool} works on files only. Use bash for a folder.`);
  if (!stats.isFile()) throw new ToolError(`${tool}: ${shown} is not a regular file (a symlink or a device); use bash if you mean to change it.`);
}

export const moveFileTool = defineTool({
  name: "move_file",
  description: "Move or rename a file; creates missing folders, refuses an existing target.",
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => `${input.from} → ${input.to}`, paths: (input) => [input.from, input.to], readsContent: true },
  defaultDecision: "ask",
  preview(input, ctx): ToolPreview {
    try {
      const from = fileOperand(ctx, input.from, "move_file");
      const to = fileOperand(ctx, input.to, "move_file");
      return { type: "move", path: from.shown, to: to.shown, before: "", after: "" };
    } catch (error) {
      return { type: "fails", path: input.from, why: error instanceof Error ? error.message : String(error) };
    }
  },
  precheck: async (input, ctx) => void (await moveEnds(ctx, input)),
  async execute(input, ctx) {
    const { from, to } = await moveEnds(ctx, input);
    await ctx.journal?.before(from.abs);
    await ctx.journal?.before(to.abs);
    // Both ends reached from the workspace root without following a link (lib/fs/confined.ts);
    // across file systems (a mount under the workspace) the file is copied, then removed.
    const { made } = renameConfined({ root: ctx.root, tool: "move_file" }, from.abs, to.abs);
    const created = made ? ` (created ${displayPath(ctx, made)}/)` : "";
    return { output: `Moved ${from.shown} to ${to.shown}${created}.`, summary: `moved to ${to.shown}` };
  },
});

/** Both ends of a move: a regular file inside the workspace, to a free path; ToolErrors otherwise. */
async function moveEnds(ctx: Where, input: { from: string; to: string }) {
  const from = fileOperand(ctx, input.from, "move_file");
  const to = fileOperand(ctx, input.to, "move_file");
  regularFile(ctx, from.abs, from.shown, "move_file");
  if (from.abs === to.abs) throw new ToolError(`move_file: ${from.shown} and ${to.shown} are the same path.`);
  const occupied = lstatConfined({ root: ctx.root, tool: "move_file" }, to.abs) !== undefined;
  if (occupied) throw new ToolError(`move_file: ${to.shown} already exists. Delete it first (delete_file) or pick another name.`);
  return { from, to };
}
