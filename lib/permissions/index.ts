export { matchPattern, patternToRegExp } from "./match-pattern.ts";
export { Decision, GuardConfig, PermissionConfig, SubjectRules, type PermissionSettings } from "../config/permission-schema.ts";
export { flattenRules, lastMatchingRule, type PermissionRule } from "./rules.ts";
export { defaultDecision, isProtectedSecret, type GatedTool } from "./defaults.ts";
export { decideCall, workspacePath, type Verdict } from "./decide.ts";
export { guardCommand, type GuardOptions, type GuardRefusal } from "./guard.ts";
export { REPEAT_LIMIT, createRepeatTracker, stableJson, type RepeatTracker } from "./repeat-guard.ts";
export { createSessionGrants, describeGrant, grantFor, type Grant, type SessionGrants } from "./session-grants.ts";
export { commandParts, commandWords, type CommandPart } from "./command-parts.ts";
export {
  createPermissionPolicy,
  type AskAnswer,
  type PermissionPolicy,
  type PermissionPolicyOptions,
  type PermissionQuestion,
} from "./policy.ts";
