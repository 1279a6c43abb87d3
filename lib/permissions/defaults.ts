import { isSensitivePath } from "../tools/sensitive-path.ts";
import type { Decision } from "../config/permission-schema.ts";

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
 * read_file of `.env`, `.env.*` (not `.env.example`) or `*.pem`, and a bash command that names
 * one (`cat .env`, `source .env.local`, `grep KEY < .env`). Denied before config rules are
 * consulted: a broad `"*": "allow"` written for convenience must not open the secrets file too.
 * For bash this is a check of the words in the command, not a sandbox: a glob such as `.e*`
 * is not recognised (docs/permissions.md says so).
 */
export function isProtectedSecret(tool: string, subject: string): boolean {
  if (tool === "read_file") return isSensitivePath(subject);
  if (tool === "bash") return shellWords(subject).some((word) => isSensitivePath(word));
  return false;
}

/** The words of a command line, split at blanks, quotes and shell operators. */
function shellWords(command: string): string[] {
  return command.split(/[\s;|&<>()'"`$={}]+/).filter(Boolean);
}
