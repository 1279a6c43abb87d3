import type { ToolSubject } from "../tools/define.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { commandWords } from "./command-parts.ts";
import type { Decision } from "../config/permission-schema.ts";

/** What permissions read off a tool definition (lib/tools/define.ts); every tool fits. */
export type GatedTool = { name: string; mutates: boolean; defaultDecision: Decision; subject: Pick<ToolSubject<never>, "kind" | "readsContent"> };

/**
 * The decision for a call no config rule matched: the tool's own default. A tool that mutates is
 * never allowed by default, even if its definition says so, so a mutating tool can never silently
 * skip approval.
 */
export function defaultDecision(tool: GatedTool, subject: string): Decision {
  if (isProtectedSecret(tool, subject)) return "deny";
  return tool.mutates && tool.defaultDecision === "allow" ? "ask" : tool.defaultDecision;
}

/** Where a secrets file may be named inside a word: `--include=.env`, `if=.env`, `open('.env')`. */
const INSIDE_A_WORD = /[\s;|&<>()'"`$={}]+/;

/**
 * A path tool that shows the file's content (read_file) given `.env`, `.env.*` (not `.env.example`)
 * or `*.pem`, and a command that names one (`cat .env`, `source .env.local`, `grep KEY < .env`).
 * Denied before config rules are consulted: a broad `"*": "allow"` written for convenience must
 * not open the secrets file too. A command's words are read by the shell parser, nested scripts
 * and heredocs included, and each is also looked through for a name inside it. This is a check of
 * the words, not a sandbox: a glob such as `.e*` is not recognised (docs/permissions.md says so).
 */
export function isProtectedSecret(tool: Pick<GatedTool, "subject">, subject: string): boolean {
  switch (tool.subject.kind) {
    case "path":
      return tool.subject.readsContent === true && isSensitivePath(subject);
    case "command":
      return commandWords(subject).some((word) => word.split(INSIDE_A_WORD).some((part) => part !== "" && isSensitivePath(part)));
    case "pattern":
    case "text":
      return false;
    default:
      return tool.subject.kind satisfies never;
  }
}
