import { hookToolCalls, hookToolResponse, type HookToolCall } from "../hooks/claude-tools.ts";
import type { HookRunRecord, Hooks } from "../hooks/hooks.ts";
import type { HookOutcome } from "../hooks/outcome.ts";
import type { EventSink } from "../events.ts";

/** What the PreToolUse hooks decided about a call. */
export type PreToolVerdict =
  | { run: true; input: unknown; hook?: "allow" | "ask"; context: string[] }
  | { run: false; reason: string };

/**
 * The PreToolUse hooks of one call (one event per file for the tools that touch several). A deny
 * from any of them refuses the call; an ask from any makes it a question; an allow from all of
 * them skips the question (never the guard or a rule: the approver decides that). A changed input
 * is taken only from a call that makes one event and can take it back into shiro's shape.
 */
export async function preToolUse(hooks: Hooks, tool: string, input: unknown, id: string, root: string, signal: AbortSignal, emit: EventSink): Promise<PreToolVerdict> {
  const calls = hookToolCalls(tool, asObject(input), root);
  const outcomes = await Promise.all(calls.map((call) => hooks.fire("PreToolUse", { tool_name: call.toolName, tool_input: call.input, tool_use_id: id }, { names: call.names, signal, onRun: reportTo(emit) })));
  outcomes.forEach((outcome) => say(outcome, emit));
  const denied = outcomes.find((o) => o.permission === "deny" || o.blocked);
  if (denied) return { run: false, reason: denied.permissionReason ?? (denied.reasons.join("\n") || "a PreToolUse hook refused this call") };
  const context = outcomes.flatMap((o) => o.context);
  const ask = outcomes.some((o) => o.permission === "ask");
  const allow = outcomes.length > 0 && outcomes.every((o) => o.permission === "allow");
  const updated = calls.length === 1 ? outcomes[0]!.updatedInput : undefined;
  const changed = updated && calls[0]!.toShiro ? calls[0]!.toShiro(updated) : input;
  return { run: true, input: changed, ...(ask ? { hook: "ask" as const } : allow ? { hook: "allow" as const } : {}), context };
}

/**
 * PostToolUse (the call ran) or PostToolUseFailure (it failed or was interrupted). Returns the text
 * the model reads after the call's own result: what a blocking hook said, and added context.
 */
export async function postToolUse(hooks: Hooks, tool: string, input: unknown, id: string, root: string, result: { output: string } | { error: string; interrupted: boolean }, signal: AbortSignal, emit: EventSink): Promise<string> {
  const event = "output" in result ? "PostToolUse" : "PostToolUseFailure";
  if (!hooks.has(event)) return "";
  const calls = hookToolCalls(tool, asObject(input), root);
  const fields = (call: HookToolCall) =>
    "output" in result
      ? { tool_response: hookToolResponse(call, result.output) }
      : { error: result.error, is_interrupt: result.interrupted };
  const outcomes = await Promise.all(
    calls.map((call) => hooks.fire(event, { tool_name: call.toolName, tool_input: call.input, tool_use_id: id, ...fields(call) }, { names: call.names, signal, onRun: reportTo(emit) })),
  );
  outcomes.forEach((outcome) => say(outcome, emit));
  const notes = outcomes.flatMap((o) => [...o.reasons, ...o.context]);
  return notes.length > 0 ? `\n\n[${event} hook]\n${notes.join("\n")}` : "";
}

/** A hook's message for the user (its run and any failure are the `hook` events). */
function say(outcome: HookOutcome, emit: EventSink): void {
  for (const message of outcome.systemMessages) emit({ type: "notice", message });
}

/** Each hook's run as a `hook` event. */
export const reportTo = (emit: EventSink) => (record: HookRunRecord) => emit({ type: "hook", ...record });

function asObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
