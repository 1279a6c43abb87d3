import { bashTool } from "./bash.ts";
import type { AnyTool, ToolDef } from "./define.ts";
import { editFileTool } from "./edit-file.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { listDirTool } from "./list-dir.ts";
import { multiEditTool } from "./multi-edit.ts";
import { readFileTool } from "./read-file.ts";
import { writeFileTool } from "./write-file.ts";

export { displayPath, resolveInWorkspace } from "./workspace.ts";

/**
 * Erases a tool's input type so it fits AnyTool. Safe because runTool parses the input with the
 * tool's own schema before execute sees it; needed because AnyTool's execute takes `unknown`.
 */
export function asAnyTool(tool: ToolDef<any>): AnyTool {
  return tool as unknown as AnyTool;
}

/** The tools every session gets, in the order the model sees them. */
export const coreTools: AnyTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  multiEditTool,
  globTool,
  grepTool,
  listDirTool,
  bashTool,
].map(asAnyTool);
