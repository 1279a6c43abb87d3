/**
 * The config file's `permission` and `guard` sections. They are part of the file's format, so they
 * are validated with the rest of it when it is loaded; lib/permissions reads the result.
 */
import * as v from "valibot";

/** What a rule says about a call. Anything else is rejected when the config is loaded. */
export const Decision = v.picklist(
  ["allow", "ask", "deny"],
  (issue) => `must be "allow", "ask" or "deny" (got ${issue.received})`,
);
export type Decision = v.InferOutput<typeof Decision>;

/** A JSON object, not an array (valibot's record would take `["allow"]` as `{ "0": "allow" }`). */
const plainObject = (message: string) =>
  v.custom<Record<string, unknown>>((input) => typeof input === "object" && input !== null && !Array.isArray(input), message);

/** Subject pattern → decision, e.g. `{ "*": "ask", "git status*": "allow" }`. */
export const SubjectRules = v.pipe(
  plainObject('must be "allow", "ask", "deny" or an object of patterns → decisions'),
  v.record(v.string(), Decision),
);
export type SubjectRules = v.InferOutput<typeof SubjectRules>;

/**
 * Config `permission`: tool name or tool glob → a decision for every call of that tool, or an
 * object of subject patterns → decisions. Key order matters (the last matching rule wins), and
 * valibot's record keeps it. Each value is parsed by the one schema that fits its type, so a typo
 * deep inside is reported with its full path ("permission.bash.git push*") and the word it got.
 */
export const PermissionConfig = v.pipe(
  plainObject("must be an object of tool names → decisions"),
  v.record(
    v.string(),
    v.lazy((input) => (typeof input === "string" ? Decision : SubjectRules)),
  ),
);
export type PermissionConfig = v.InferOutput<typeof PermissionConfig>;

/** A guard.allow entry must name something: a pattern of only wildcards would switch the guard off. */
const GuardAllowPattern = v.pipe(
  v.string("must be a string pattern such as \"git push --force-with-lease*\""),
  v.check(
    (pattern) => /[^*?\s]/.test(pattern),
    "must name a command (a pattern of only wildcards would turn the guard off; shiro has no switch for that)",
  ),
);

/** Config `guard`: `allow` lists patterns for refusals the user accepts, matched against the refused command. */
export const GuardConfig = v.strictObject(
  {
    allow: v.optional(v.array(GuardAllowPattern, "must be a list of patterns")),
  },
  (issue) =>
    issue.expected === "never" ? `has an unknown field; only "allow" is supported` : `must be an object such as { "allow": ["…"] }`,
);
export type GuardConfig = v.InferOutput<typeof GuardConfig>;

/**
 * Config `alwaysAllow`: tool name → the grants an "always" answer saved, e.g.
 * `{ "bash": ["git commit *"], "write_file": ["*"] }` (`"*"` alone: every call of a tool whose
 * subject is not a command). They are not rules: the policy loads them as grants, checked after
 * every deny and ask rule the user wrote and with the grant's own limits (no redirection into a
 * file, no git alias), exactly like an "always" given in the session.
 */
export const AlwaysAllowConfig = v.pipe(
  plainObject('must be an object of tool names → lists of patterns, such as { "bash": ["git commit *"] }'),
  v.record(
    v.string(),
    v.array(
      v.pipe(v.string("must be a pattern such as \"git commit *\""), v.check((pattern) => pattern.trim() !== "", "must not be empty")),
      'must be a list of patterns, such as ["git commit *"]',
    ),
  ),
);
export type AlwaysAllowConfig = v.InferOutput<typeof AlwaysAllowConfig>;

/** The part of the config file the permission policy reads. */
export type PermissionSettings = {
  permission?: PermissionConfig;
  /** Saved "always" answers, loaded as grants. */
  alwaysAllow?: AlwaysAllowConfig;
  guard?: GuardConfig;
  readOnlyCommands?: ReadOnlyCommandsConfig;
  /** Read for the workspace root only: its `permission` rules come after the file's own. */
  projects?: ProjectsConfig;
};

/**
 * How much the interactive loop asks (`--mode`, config `approvalMode`, shift-tab, `/mode`):
 * `ask` asks before edits and commands; `edits` runs file edits inside the workspace without
 * asking; `auto` also runs commands without asking when they run in a working sandbox.
 * Headless runs have no mode.
 */
export const APPROVAL_MODES = ["ask", "edits", "auto"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export const ApprovalModeSchema = v.picklist(APPROVAL_MODES, `must be one of ${APPROVAL_MODES.join(", ")}`);

const CommandEntries = v.array(
  v.pipe(
    v.string("must be a program name such as \"jq\" or \"npm ls\""),
    v.regex(/^\s*[A-Za-z0-9_.+-]+(\s+[A-Za-z0-9_.+:-]+)?\s*$/, 'must be a program, or a program and its sub-command, such as "jq" or "npm ls" (one sub-command word: "git stash", not "git stash list")'),
    // git is judged by its sub-command, and cd joins any read-only line already: these could not apply.
    v.check((entry) => entry.trim() !== "git", 'cannot be "git" alone: git is listed by sub-command, such as "git stash" or "git remote"'),
    v.check((entry) => entry.trim() !== "cd", 'cannot be "cd": cd may already join any read-only command'),
  ),
  "must be a list of commands",
);

/** Config `readOnlyCommands`: programs added to the list of commands that run without a question, and built-in ones taken out. */
export const ReadOnlyCommandsConfig = v.strictObject(
  { add: v.optional(CommandEntries), remove: v.optional(CommandEntries) },
  (issue) => (issue.expected === "never" ? 'has an unknown field; only "add" and "remove" are supported' : 'must be an object such as { "add": ["jq"], "remove": ["find"] }'),
);
export type ReadOnlyCommandsConfig = v.InferOutput<typeof ReadOnlyCommandsConfig>;

/** One project's entry under config `projects`: rules and saved "always" answers that apply only when the workspace root is that directory. */
export const ProjectConfig = v.strictObject(
  { permission: v.optional(PermissionConfig), alwaysAllow: v.optional(AlwaysAllowConfig) },
  (issue) =>
    issue.expected === "never" ? 'has an unknown field; only "permission" and "alwaysAllow" are supported' : 'must be an object such as { "permission": { … } }',
);

/** Config `projects`: absolute project root → its own settings ("always … for this project" writes here). */
export const ProjectsConfig = v.record(
  v.pipe(v.string(), v.check((path) => path.startsWith("/"), "must be keyed by an absolute project root")),
  ProjectConfig,
);
export type ProjectsConfig = v.InferOutput<typeof ProjectsConfig>;
