import type { LanguageModel } from "ai";
import type { Settings } from "../config/resolve.ts";
import type { ConfigFile } from "../config/schema.ts";
import type { CallOptions } from "../provider/call-options.ts";
import type { ContextWindow } from "../provider/context-window.ts";
import type { Commands } from "../sandbox/index.ts";
import type { SkillSet } from "../skills/skills.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { ProjectDoc } from "./project-docs.ts";
import type { Environment } from "./instructions.ts";

/** Everything a session needs that comes from outside: settings, model, where it runs. */
export type Runtime = {
  home: string;
  /** The validated config file (permission rules, guard exceptions, …). */
  config: ConfigFile;
  settings: Settings;
  model: LanguageModel;
  /** Where the session works: the directory, the project root, the user's home, the date and platform. */
  workspace: Environment;
  projectDocs: ProjectDoc[];
  /** Provider options for every model call, built once from the settings (lib/provider/call-options.ts). */
  callOptions: CallOptions;
  /** The model's context window for this session (lib/provider/context-window.ts); a refusal can shrink it. */
  window: ContextWindow;
  /** Where the tools run programs: the sandbox, or this machine (lib/sandbox). One per process. */
  commands: Commands;
  /** The skills found at the session's start (lib/skills); read once, so the system prompt stays the same. */
  skills?: SkillSet;
  /** The session's MCP servers (lib/mcp), when any are configured and trusted; their tools join every request once connected. */
  mcp?: McpManager;
};
