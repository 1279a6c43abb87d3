import type { MemoryStore } from "../memory/store.ts";
import { createMemoryTools } from "../memory/tools.ts";
import type { Notebook } from "../notebook/notebook.ts";
import { createTodoWriteTool } from "../notebook/todo-write-tool.ts";
import { bashTool } from "./bash.ts";
import type { AnyTool } from "./define.ts";
import { editFileTool } from "./edit-file.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { listDirTool } from "./list-dir.ts";
import { multiEditTool } from "./multi-edit.ts";
import { readFileTool } from "./read-file.ts";
import { writeFileTool } from "./write-file.ts";

export { displayPath, resolveInWorkspace } from "./workspace.ts";

/** The tools that need nothing but the workspace, in the order the model sees them. */
export const coreTools: readonly AnyTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  multiEditTool,
  globTool,
  grepTool,
  listDirTool,
  bashTool,
];

export type ToolsContext = {
  /** The session's task list, which todo_write replaces. */
  notebook: Notebook;
  /** The project's memory store; without one (`--no-memory`) remember, recall and forget are not offered. */
  memory?: MemoryStore;
};

/** Every tool a session gets, in the order the model sees them: the core tools, todo_write, then memory. */
export function toolsFor(context: ToolsContext): AnyTool[] {
  return [...coreTools, createTodoWriteTool(context.notebook), ...(context.memory ? createMemoryTools(context.memory) : [])];
}
