import type { MemoryStore } from "../memory/store.ts";
import type { Notebook } from "../notebook/notebook.ts";
import type { Commands } from "../sandbox/index.ts";
import { applyPatchTool } from "./apply-patch.ts";
import { bashTool, createBashTool } from "./bash.ts";
import { deleteFileTool } from "./delete-file.ts";
import type { AnyTool } from "./define.ts";
import { editFileTool } from "./edit-file.ts";
import { createForgetTool } from "./forget.ts";
import { gitTool } from "./git.ts";
import { createJobsTool, jobsTool } from "./jobs.ts";
import { globTool } from "./glob.ts";
import { createGrepTool, grepTool } from "./grep.ts";
import { listDirTool } from "./list-dir.ts";
import { moveFileTool } from "./move-file.ts";
import { multiEditTool } from "./multi-edit.ts";
import { readFileTool } from "./read-file.ts";
import { createRecallTool } from "./recall.ts";
import { createRememberTool } from "./remember.ts";
import { createTodoWriteTool } from "./todo-write.ts";
import { createWebFetchTool, webFetchTool } from "./web-fetch.ts";
import type { WebFetchSettings } from "../config/resolve.ts";
import type { Skill } from "../skills/skills.ts";
import { createSkillTool } from "./skill.ts";
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
  jobsTool,
  gitTool,
  webFetchTool,
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
  /** web_fetch's limits and allowed hosts (config `webFetch`); without it, the defaults. */
  webFetch?: WebFetchSettings;
  /** The session's skills; with none, the skill tool is not offered. */
  skills?: readonly Skill[];
};

/**
 * The three memory tools, bound to one project's store. Not offered at all with `--no-memory`.
 * Each refusal (unknown kind, empty or over-long text, duplicate, full store, empty query) is a
 * ToolError, so the model gets a tool error result naming the problem and the store is unchanged.
 */
export function memoryTools(store: MemoryStore): AnyTool[] {
  return [createRememberTool(store), createRecallTool(store), createForgetTool(store)];
}

/** Every tool a session gets, in the order the model sees them: the core tools, todo_write, memory, then skill. */
export function toolsFor(context: ToolsContext): AnyTool[] {
  const { commands, webFetch } = context;
  const bound = (tool: AnyTool): AnyTool => {
    if (commands && tool === bashTool) return createBashTool(commands);
    if (commands && tool === jobsTool) return createJobsTool(commands);
    if (commands && tool === grepTool) return createGrepTool({ commands });
    if (webFetch && tool === webFetchTool) return createWebFetchTool(webFetch);
    return tool;
  };
  const skills = context.skills && context.skills.length > 0 ? [createSkillTool(context.skills)] : [];
  const all = [...coreTools.map(bound), createTodoWriteTool(context.notebook), ...(context.memory ? memoryTools(context.memory) : []), ...skills];
  // Read-only sets: nothing that writes or runs commands; the network only when the config says so.
  // jobs stops commands: it goes with bash.
  const offered = (tool: AnyTool) => tool.name !== "jobs" && !tool.mutates && tool.subject.kind !== "command" && (!tool.reachesNetwork || webFetch?.readOnlyAgents === true);
  return context.readOnly ? all.filter(offered) : all;
}
