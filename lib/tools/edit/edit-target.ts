import { ToolError } from "../../errors.ts";
import { looksBinary } from "../../fs/binary.ts";
import type { ToolContext } from "../define.ts";
import { describeMissing, statIfExists } from "../../fs/missing-path.ts";
import { displayPath, resolveInWorkspace } from "../../fs/workspace.ts";

/**
 * Loads the file an edit tool is about to change: inside the workspace, existing, a regular text
 * file. Failures are ToolErrors prefixed with `tool`.
 */
export async function loadEditTarget(
  ctx: ToolContext,
  tool: string,
  path: string,
): Promise<{ abs: string; shown: string; content: string }> {
  const abs = resolveInWorkspace(ctx, path, tool);
  const shown = displayPath(ctx, abs);
  const stats = statIfExists(abs);
  if (!stats) throw new ToolError(`${tool}: ${describeMissing(abs, shown)} To create a new file use write_file.`);
  if (stats.isDirectory()) throw new ToolError(`${tool}: ${shown} is a directory; edits apply to files.`);
  const bytes = await Bun.file(abs).bytes();
  if (looksBinary(bytes)) throw new ToolError(`${tool}: ${shown} is a binary file; only text files can be edited.`);
  return { abs, shown, content: new TextDecoder().decode(bytes) };
}
