import type { GuardRefusal } from "./guard.ts";
import type { Verdict } from "./decide.ts";

/**
 * What the user's line says of a denial, in a few words (`⊘ write_file h.txt: not run (headless
 * without --yolo)`). The model gets the whole reason (reasons.ts), which is written for it: what
 * happened and what it should do next.
 */

export const HEADLESS_ASK_SHOWN = "headless without --yolo";
export const SUBAGENT_ASK_SHOWN = "a read-only subagent does not ask";
export const DECLINED_SHOWN = "declined";

export function guardShown(refusal: GuardRefusal): string {
  return `safety guard: ${refusal.why}`;
}

export function denyShown(verdict: Verdict): string {
  return verdict.rule ? `denied by the rule ${verdict.rule.label}` : "a secrets file, never read or written";
}

export function repeatShown(count: number): string {
  return `the same call ${count} times this turn`;
}

export function askFailedShown(error: unknown): string {
  return `could not ask: ${error instanceof Error ? error.message : String(error)}`;
}

export function opaqueShown(verdict: Verdict): string {
  return `code shiro cannot read, where ${verdict.rule ? `the rule ${verdict.rule.label}` : "a deny rule"} could apply`;
}
