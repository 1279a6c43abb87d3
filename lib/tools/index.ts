import type { MemoryStore } from "../memory/store.ts";
import type { Notebook } from "../notebook/notebook.ts";
import type { Commands } from "../sandbox/index.ts";
import { applyPatchTool } from "./apply-patch.ts";
import { bashTool, createBashTool } from "./bash.ts";
import { deleteFileTool } from "./delete-file.ts";
import type { AnyTool } from "./define.ts";
import { editFileTool } from "./edit-file.ts";
import { createForgetTool } from "./forget.ts";
import { gitBlameTool } from "./git-blame.ts";
import { gitDiffTool } from "./git-diff.ts";
import { gitLogTool } from "./git-log.ts";
import { gitShowTool } from "./git-show.ts";
import { gitStatusTool } from "./git-status.ts";
import { globTool } from "./glob.ts";
import { createGrepTool, grepTool } from "./grep.ts";
import { listDirTool } from "./list-dir.ts";
import { moveFileTool } from "./move-file.ts";
import { multiEditTool } from "./multi-edit.ts";
import { readFileTool } from "./read-file.ts";
import { createRecallTool } from "./recall.ts";
import { createRememberTool } from "./remember.ts";
import { createTodoWriteTool } from "./todo-write.ts";
import { writeFileTool } from "./write-file.ts";

export { displayPath, resolveInWorkspace } from "../fs/workspace.ts";

/** The tools that need nothing but the workspace, in the order the model sees them. */
export const coreTools: readonly AnyTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  multiEditTool,
  applyPatchTool,
  moveFileTool,
  deleteFileTool,
  globTool,
  grepTool,
  listDirTool,
  bashTool,
  gitStatusTool,
  gitDiffTool,
  gitLogTool,
  gitShowTool,
  gitBlameTool,
];

export type ToolsContext = {
  /** The session's task list, which todo_write replaces. */
  notebook: Notebook;
  /** The project's memory store; without one (`--no-memory`) remember, recall and forget are not offered. */
  memory?: MemoryStore;
  /** A read-only agent (plan, review): no tool that writes files or runs commands is offered. */
  readOnly?: boolean;
  /** Where bash and grep run programs (the session's sandbox); without it, directly (tests, digests). */
  commands?: Commands;
};

/**
 * The three memory tools, bound to one project's store. Not offered at all with `--no-memory`.
 * Each refusal (unknown kind, empty or over-long text, duplicate, full store, empty query) is a
 * ToolError, so the model gets a tool error result naming the problem and the store is unchanged.
 */
export function memoryTools(store: MemoryStore): AnyTool[] {
  return [createRememberTool(store), createRecallTool(store), createForgetTool(store)];
}

/** Every tool a session gets, in the order the model sees them: the core tools, todo_write, then memory. */
export function toolsFor(context: ToolsContext): AnyTool[] {
  const { commands } = context;
  const core = commands
    ? coreTools.map((tool) => (tool === bashTool ? createBashTool(commands) : tool === grepTool ? createGrepTool({ commands }) : tool))
    : coreTools;
  const all = [...core, createTodoWriteTool(context.notebook), ...(context.memory ? memoryTools(context.memory) : [])];
  return context.readOnly ? all.filter((tool) => !tool.mutates && tool.subject.kind !== "command") : all;
}
