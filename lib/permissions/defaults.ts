import { isSensitivePath } from "../tools/sensitive-path.ts";
import type { Decision } from "./schema.ts";

/** Built-in decisions by tool name, used when no config rule matches. */
export const DEFAULT_DECISIONS: Readonly<Record<string, Decision>> = {
  read_file: "allow",
  glob: "allow",
  grep: "allow",
  list_dir: "allow",
  remember: "allow",
  recall: "allow",
  forget: "allow",
  todo_write: "allow",
  write_file: "ask",
  edit_file: "ask",
  multi_edit: "ask",
  bash: "ask",
};

/**
 * The decision for a call no config rule matched. A tool missing from the table asks when it
 * mutates and is allowed when it does not; a tool that mutates is never allowed by default, even
 * if the table says so, so adding a mutating tool can never silently skip approval.
 */
export function defaultDecision(tool: { name: string; mutates: boolean }, subject: string): Decision {
  if (isProtectedSecret(tool.name, subject)) return "deny";
  const listed = Object.hasOwn(DEFAULT_DECISIONS, tool.name) ? DEFAULT_DECISIONS[tool.name] : undefined;
  const decision = listed ?? (tool.mutates ? "ask" : "allow");
  return tool.mutates && decision === "allow" ? "ask" : decision;
}

/**
 * read_file of `.env`, `.env.*` (not `.env.example`) or `*.pem`. Denied before config rules are
 * consulted: a broad `"*": "allow"` written for convenience must not open the secrets file too.
 */
export function isProtectedSecret(tool: string, subject: string): boolean {
  return tool === "read_file" && isSensitivePath(subject);
}
