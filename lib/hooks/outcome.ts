import type { HookVerdict, PermissionDecision } from "./verdict.ts";

/** What the hooks of one event said together. */
export type HookOutcome = {
  verdicts: readonly HookVerdict[];
  /** Any hook blocked (exit 2 or a JSON block/deny). */
  blocked: boolean;
  /** Their reasons, in configuration order. */
  reasons: string[];
  /** PreToolUse: deny beats ask beats allow. */
  permission?: PermissionDecision;
  permissionReason?: string;
  /** PreToolUse: the first changed input, unless a hook denied. */
  updatedInput?: Record<string, unknown>;
  /** Context for the model, in configuration order. */
  context: string[];
  systemMessages: string[];
  /** A hook said `continue: false`. */
  stop?: { reason: string | undefined };
  /** One line each for the hooks that failed without blocking. */
  errors: string[];
};

const RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, deny: 3 };

export const NO_OUTCOME: HookOutcome = { verdicts: [], blocked: false, reasons: [], context: [], systemMessages: [], errors: [] };

export function combineVerdicts(verdicts: readonly HookVerdict[]): HookOutcome {
  const outcome: HookOutcome = { verdicts, blocked: false, reasons: [], context: [], systemMessages: [], errors: [] };
  for (const verdict of verdicts) {
    if (verdict.blocks) {
      outcome.blocked = true;
      if (verdict.reason) outcome.reasons.push(verdict.reason);
    }
    if (verdict.permission && (!outcome.permission || RANK[verdict.permission] > RANK[outcome.permission])) {
      outcome.permission = verdict.permission;
      outcome.permissionReason = verdict.permissionReason;
    }
    if (verdict.updatedInput && !outcome.updatedInput) outcome.updatedInput = verdict.updatedInput;
    if (verdict.context) outcome.context.push(verdict.context);
    if (verdict.systemMessage) outcome.systemMessages.push(verdict.systemMessage);
    if (verdict.stop && !outcome.stop) outcome.stop = verdict.stop;
    if (verdict.error) outcome.errors.push(verdict.error);
  }
  if (outcome.permission === "deny") delete outcome.updatedInput;
  return outcome;
}
