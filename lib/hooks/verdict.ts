import type { HookEvent } from "./events.ts";
import type { CommandRun } from "./run-command.ts";
import type { HookCommand } from "./table.ts";

export type PermissionDecision = "allow" | "deny" | "ask";

/** What one hook command said, read by Claude Code's rules. */
export type HookVerdict = {
  command: HookCommand;
  run: CommandRun;
  /** Exit code 2, or `decision: "block"`: the event's blockable action does not happen. */
  blocks: boolean;
  /** Why it blocks (stderr for exit 2, `reason` for a JSON block). */
  reason?: string;
  /** PreToolUse: allow, deny or ask, from `hookSpecificOutput` or the older `decision`. */
  permission?: PermissionDecision;
  permissionReason?: string;
  /** PreToolUse: the input the call runs with instead (Claude Code's shape). */
  updatedInput?: Record<string, unknown>;
  /** Text added to the model's context. */
  context?: string;
  /** A line for the user (`systemMessage`). */
  systemMessage?: string;
  /** `continue: false`: everything stops after this event, with the reason for the user. */
  stop?: { reason: string | undefined };
  suppressOutput: boolean;
  /** The one line shown when the hook failed without blocking (another exit code, a timeout, no start). */
  error?: string;
};

/** Events whose plain stdout (exit 0, not JSON) is context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(["SessionStart", "UserPromptSubmit"]);

export function readVerdict(event: HookEvent, command: HookCommand, run: CommandRun): HookVerdict {
  const verdict: HookVerdict = { command, run, blocks: false, suppressOutput: false };
  const json = parseObject(run.stdout);
  if (run.failedToStart !== undefined) {
    verdict.error = `hook ${event} could not start ${quote(command.command)}: ${run.failedToStart}`;
    return verdict;
  }
  if (run.timedOut) {
    verdict.error = `hook ${event} ${quote(command.command)} timed out after ${command.timeoutS}s and was stopped`;
    return verdict;
  }
  if (json) readJson(event, json, verdict);
  if (run.exitCode === 2) {
    verdict.blocks = true;
    verdict.reason = run.stderr.trim() || verdict.reason || `blocked by ${quote(command.command)}`;
    if (event === "PreToolUse") {
      verdict.permission = "deny"; // exit 2 wins over a JSON allow
      verdict.permissionReason = verdict.reason;
    }
  } else if (run.exitCode === 0) {
    if (!json && STDOUT_IS_CONTEXT.has(event) && run.stdout.trim() !== "") verdict.context = run.stdout.trim();
  } else if (run.exitCode !== null) {
    const first = firstLine(run.stderr) ?? firstLine(run.stdout);
    verdict.error = `hook ${event} ${quote(command.command)} failed (exit ${run.exitCode})${first ? `: ${first}` : ""}`;
  }
  return verdict;
}

function readJson(event: HookEvent, json: Record<string, unknown>, verdict: HookVerdict): void {
  if (json.continue === false) verdict.stop = { reason: text(json.stopReason) };
  verdict.systemMessage = text(json.systemMessage);
  verdict.suppressOutput = json.suppressOutput === true;
  const reason = text(json.reason);
  if (json.decision === "block") {
    verdict.blocks = true;
    verdict.reason = reason ?? "blocked by a hook";
    if (event === "PreToolUse") {
      verdict.permission = "deny";
      verdict.permissionReason = verdict.reason;
    }
  } else if (json.decision === "approve" && event === "PreToolUse") {
    verdict.permission = "allow";
    verdict.permissionReason = reason;
  }
  const specific = json.hookSpecificOutput;
  if (specific === null || typeof specific !== "object" || Array.isArray(specific)) return;
  const out = specific as Record<string, unknown>;
  if (typeof out.hookEventName === "string" && out.hookEventName !== event) return;
  const context = text(out.additionalContext);
  if (context !== undefined) verdict.context = context;
  if (event !== "PreToolUse") return;
  const decision = out.permissionDecision;
  if (decision === "allow" || decision === "deny" || decision === "ask") {
    verdict.permission = decision;
    verdict.permissionReason = text(out.permissionDecisionReason);
    if (decision === "deny") {
      verdict.blocks = true;
      verdict.reason = verdict.permissionReason ?? "denied by a hook";
    }
  }
  const updated = out.updatedInput;
  if (updated !== null && typeof updated === "object" && !Array.isArray(updated)) verdict.updatedInput = updated as Record<string, unknown>;
}

/** stdout as a JSON object, when it is one; anything else is plain output. */
function parseObject(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const firstLine = (value: string): string | undefined => value.split("\n").map((line) => line.trim()).find((line) => line !== "");

function quote(command: string): string {
  const short = command.length > 60 ? command.slice(0, 57) + "…" : command;
  return JSON.stringify(short);
}
