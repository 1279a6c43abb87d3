import type { AnyTool } from "./tools/define.ts";

/**
 * The contract between the turn and whoever decides whether a tool call may run (the permission
 * policy, the interactive approval gate). A leaf of its own, so the agent and the permissions
 * both depend on it and not on each other.
 */

/**
 * `signal`, when given with an allow, stops this one call without stopping the turn (the
 * interactive loop's ctrl-c on a running bash): the tool sees it aborted and reports an
 * interrupted result the model can read, and the turn goes on. `runOutside`, when given with an
 * allow, is the tool's way to ask for one run outside the sandbox (ToolContext.runOutside).
 * `readOnly`, when given with an allow, says the call is a command on the read-only list
 * (lib/permissions/read-only.ts): bash then looks its programs up on a PATH without relative or
 * workspace entries (ToolContext.readOnly), so a repository's own `ls` or `git` never runs as one.
 * `done`, when given with an allow, is called once the call has finished, however it ended (the
 * interactive gate holds the next question about a change until then).
 */
export type Approval = { allow: true; signal?: AbortSignal; runOutside?: (why: string) => Promise<boolean>; readOnly?: boolean; done?: () => void } | { allow: false; reason: string; shown?: string };

/**
 * A call a subagent makes (the task tool), on the parent's rules. `ask: false` for the read-only
 * kinds: such a call is decided by the rules alone, and one they would ask about is refused.
 */
export type SubagentOrigin = { kind: string; description: string; ask: boolean };

/** Decides whether a call may run. Asked for every call, before it runs. */
/**
 * `hook`: what the PreToolUse hooks said (docs/hooks.md). `allow` lifts the question as a grant
 * would, never the guard, a deny rule, the user's own ask rule or the secrets rule; `ask` makes a
 * question even under --yolo, and a refusal where nobody can answer.
 */
export type Approver = (call: { tool: AnyTool; input: unknown; subject: string; id: string; subagent?: SubagentOrigin; hook?: "allow" | "ask" }) => Promise<Approval>;
