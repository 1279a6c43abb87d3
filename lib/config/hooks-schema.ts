import * as v from "valibot";

/**
 * One handler of a hook group, as Claude Code writes it. Loose on purpose: fields shiro does not
 * use (`async`, `statusMessage`, …) and handler types it does not run (`prompt`, `agent`, `http`)
 * are kept so lib/hooks can announce them instead of the file being refused.
 */
const HookHandler = v.pipe(
  v.looseObject({
    type: v.string('must say its "type", such as "command"'),
    command: v.optional(v.pipe(v.string("must be a command line"), v.nonEmpty("must not be empty"))),
    timeout: v.optional(v.pipe(v.number("must be a number of seconds"), v.minValue(1, "must be at least 1 second"))),
  }),
  v.check((handler) => handler.type !== "command" || handler.command !== undefined, 'a "command" hook needs a "command" to run'),
);

/** `{ "matcher": "Edit|Write", "hooks": [ … ] }` */
const HookGroup = v.looseObject({
  matcher: v.optional(v.string("must be a string such as \"Edit|Write\"")),
  hooks: v.array(HookHandler, 'must be a list such as [{ "type": "command", "command": "./check.sh" }]'),
});

/** `hooks`: event name → groups. Event names are checked by lib/hooks (unknown ones are announced, not refused). */
export const HooksConfig = v.record(
  v.string(),
  v.array(HookGroup, 'must be a list of groups such as [{ "matcher": "Bash", "hooks": [ … ] }]'),
  'must be an object such as { "PreToolUse": [ … ] }',
);
export type HooksConfig = v.InferOutput<typeof HooksConfig>;
export type HookGroupConfig = v.InferOutput<typeof HookGroup>;
