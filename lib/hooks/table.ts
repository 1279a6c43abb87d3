import type { HooksConfig } from "../config/hooks-schema.ts";
import { DEFAULT_HOOK_TIMEOUT_S, HOOK_EVENTS, isHookEvent, type HookEvent } from "./events.ts";
import { matcherProblem } from "./matcher.ts";

/** One command to run for an event, with where it was written. */
export type HookCommand = {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  timeoutS: number;
  /** Where it comes from: "user config" or a project's settings file, for /hooks and messages. */
  origin: string;
};

/** Every configured command by event, in the order they were written. */
export type HookTable = ReadonlyMap<HookEvent, readonly HookCommand[]>;

export type HookSource = { origin: string; hooks: HooksConfig };

export type BuiltHooks = {
  table: HookTable;
  /** What was written but is not run, each said once (an unknown event, a handler type shiro skips). */
  notices: string[];
  /** What makes the configuration wrong (a matcher that is not a regular expression): a config error. */
  errors: string[];
};

/** Handler fields shiro reads; any other field is announced as ignored. */
const READ_FIELDS = new Set(["type", "command", "timeout"]);

/** The commands of the user's config and the trusted project files, checked. */
export function buildHookTable(sources: readonly HookSource[]): BuiltHooks {
  const table = new Map<HookEvent, HookCommand[]>();
  const notices = new Set<string>();
  const errors: string[] = [];
  for (const { origin, hooks } of sources) {
    for (const [event, groups] of Object.entries(hooks)) {
      if (!isHookEvent(event)) {
        notices.add(`hooks: ${origin}: shiro has no ${event} event; its hooks do not run (events: ${HOOK_EVENTS.join(", ")})`);
        continue;
      }
      groups.forEach((group, index) => {
        const problem = matcherProblem(group.matcher);
        if (problem) {
          errors.push(`${origin}: hooks.${event}[${index}]: ${problem}`);
          return;
        }
        for (const handler of group.hooks) {
          if (handler.type !== "command") {
            notices.add(`hooks: ${origin}: ${event} has a "${handler.type}" hook; shiro runs only "command" hooks, so it is skipped`);
            continue;
          }
          for (const field of Object.keys(handler)) {
            if (READ_FIELDS.has(field)) continue;
            notices.add(`hooks: ${origin}: "${field}" in a ${event} hook is not supported by shiro and is ignored${field === "async" ? " (the hook runs and is waited for)" : ""}`);
          }
          const list = table.get(event) ?? [];
          list.push({ event, matcher: group.matcher, command: handler.command!, timeoutS: handler.timeout ?? DEFAULT_HOOK_TIMEOUT_S, origin });
          table.set(event, list);
        }
      });
    }
  }
  return { table, notices: [...notices], errors };
}
