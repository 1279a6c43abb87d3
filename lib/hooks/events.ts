/** The moments a hook can run at, with Claude Code's names so its users' settings carry over. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "Notification",
  "SessionEnd",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * What an event's matcher is compared with: the tool's name for tool events, one field of the
 * input for the others, nothing (every group runs) for the events Claude Code does not filter.
 */
export const MATCHED_FIELD: Record<HookEvent, string | undefined> = {
  SessionStart: "source",
  UserPromptSubmit: undefined,
  PreToolUse: "tool_name",
  PostToolUse: "tool_name",
  PostToolUseFailure: "tool_name",
  Stop: undefined,
  SubagentStop: undefined,
  PreCompact: "trigger",
  Notification: "notification_type",
  SessionEnd: "reason",
};

/** Seconds a command may run when its entry names no timeout (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

/** Consecutive Stop blocks after which the turn ends anyway, unless the config says otherwise. */
export const DEFAULT_MAX_STOP_BLOCKS = 5;

/** shiro's approval modes under the names Claude Code's scripts test for. */
export function claudePermissionMode(mode: string, yolo: boolean): string {
  if (yolo) return "bypassPermissions";
  switch (mode) {
    case "edits":
      return "acceptEdits";
    case "auto":
      return "auto";
    case "plan":
      return "plan";
    default:
      return "default";
  }
}
