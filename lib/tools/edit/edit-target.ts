import { ToolError } from "../../errors.ts";
import { looksBinary } from "../../fs/binary.ts";
import { describeMissing } from "../../fs/missing-path.ts";
import { readConfined } from "../../fs/confined-ops.ts";
import { isSensitivePath, SECRETS_FILES } from "../../fs/sensitive-path.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace, type Where } from "../../fs/workspace.ts";

/** A file a tool is about to write, resolved inside the workspace; refuses a secrets file (or a link to one), as apply_patch does. */
export function writeTarget(ctx: Where, tool: string, path: string): { abs: string; shown: string } {
  const abs = resolveInWorkspace(ctx, path, tool);
  const shown = displayPath(ctx, abs);
  if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) {
    throw new ToolError(`${tool}: ${shown} is a secrets file (${SECRETS_FILES}), which shiro does not write. Ask the user to change it.`);
  }
  return { abs, shown };
}

/**
 * Loads the file an edit tool is about to change: inside the workspace, existing, a regular text
 * file, not a secrets file. Failures are ToolErrors prefixed with `tool`.
 */
export async function loadEditTarget(
  ctx: Where,
  tool: string,
  path: string,
): Promise<{ abs: string; shown: string; content: string }> {
  const { abs, shown } = writeTarget(ctx, tool, path);
  const found = readConfined({ root: ctx.root, tool }, abs);
  if (found.kind === "missing") throw new ToolError(`${tool}: ${describeMissing(ctx.root, abs, shown)} To create a new file use write_file.`);
  if (found.kind === "dir") throw new ToolError(`${tool}: ${shown} is a directory; edits apply to files.`);
  if (found.kind === "other" || !found.bytes) throw new ToolError(`${tool}: ${shown} is not a regular file; edits apply to files.`);
  const bytes = found.bytes;
  if (looksBinary(bytes)) throw new ToolError(`${tool}: ${shown} is a binary file; only text files can be edited.`);
  return { abs, shown, content: new TextDecoder().decode(bytes) };
}
