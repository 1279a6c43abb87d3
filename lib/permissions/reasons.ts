import type { GuardRefusal } from "./guard.ts";
import type { Verdict } from "./decide.ts";
import { SECRETS_FILES } from "../fs/sensitive-path.ts";

/**
 * The `reason` of each denial. The model reads it as the tool result ("Not run: …") and the user
 * sees it in the `tool-denied` event, so each one says what happened and what to do next.
 */

export function guardReason(refusal: GuardRefusal): string {
  return (
    `shiro's safety guard refused \`${refusal.command}\`: ${refusal.why}. shiro never runs this for you, with or without --yolo. ` +
    `Do not try to get the same effect another way. If it is really needed, show the user the exact command and ask them to run it themselves ` +
    `(or to add a matching pattern to "guard.allow" in the config file).`
  );
}

export function denyReason(tool: string, subject: string, verdict: Verdict): string {
  const what = subject ? `${tool} \`${verdict.matched}\`` : tool;
  if (!verdict.rule) {
    return (
      `${what} is denied: it looks like a secrets file (${SECRETS_FILES}), which shiro never reads or writes. ` +
      `Do not reach it another way (cat, grep, head, a redirection); ask the user for the value you need, or read .env.example if there is one.`
    );
  }
  return (
    `${what} is denied by the rule ${verdict.rule.label}: "deny" in the user's config. ` +
    `Do not retry it or work around it; tell the user what you wanted to do and why, and carry on with the rest.`
  );
}

/** A call that would be asked about, headless: nobody can answer. `command`: the tool runs shell commands. */
export function headlessAskReason(tool: string, command = false): string {
  const looks = command
    ? "Only commands that just look (ls, cat, grep, git status, git diff, …, without redirecting into a file) run headless without --yolo (with the sandbox off, only on paths inside the workspace); this one does more than look, or looks outside the workspace. "
    : "";
  return (
    `${tool} needs the user's approval, and shiro is running headless (shiro -p) without --yolo, so nobody can give it. Nothing was run. ` +
    looks +
    `Do not retry it. Finish what you can without it and say exactly what you would have run or changed; ` +
    `the user can rerun with --yolo or allow it under "permission" in the config file.`
  );
}

export function declinedReason(tool: string): string {
  return `The user declined this ${tool} call, so it was not run. Do not retry it; ask the user what they would like instead.`;
}

export function repeatReason(tool: string, count: number, interactive: boolean): string {
  const seen = `${tool} was called ${count} times this turn with exactly the same input, so you are not making progress`;
  return interactive
    ? `The user stopped this call: ${seen}. Do not repeat it; change your approach or ask the user how to proceed.`
    : `${seen}; this call was not run. Do not repeat it. Change your approach, or stop and tell the user what is blocking you.`;
}

export function askFailedReason(tool: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `shiro could not ask the user about this ${tool} call (${message}), so it was not run. Do not retry it; tell the user what you wanted to do.`;
}

/** A read-only subagent made a call the rules would ask about: it never asks, so the call is refused. */
export function subagentAskReason(tool: string): string {
  return `${tool} needs the user's approval here, and a read-only subagent never asks for it. Nothing was run. Do without it, and say in your report what the main agent would need to look at.`;
}

/**
 * A command runs code shiro cannot read (`python3 -c`, `node -e`, awk `system(x)`) while a deny
 * rule could apply inside it: asked about, and refused where nobody is asked or under --yolo.
 */
export function opaqueReason(tool: string, verdict: Verdict, yolo: boolean): string {
  const rule = verdict.rule ? ` the rule ${verdict.rule.label} could apply inside it` : " a deny rule could apply inside it";
  const why = yolo ? "--yolo does not lift this" : "shiro is running headless, so nobody can approve it";
  return (
    `${tool} \`${verdict.matched}\` was not run: ${verdict.opaque}, which shiro cannot read, and${rule}, so only the user can approve it, and ${why}. ` +
    `Do not retry it or hide the command another way; use plain commands that shiro can read, or tell the user what you wanted to run.`
  );
}
