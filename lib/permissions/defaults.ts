import type { ToolSubject } from "../tools/define.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { posix } from "node:path";
import { shellWords } from "./command-parts.ts";
import { SHELLS, shellScriptWord, unwrapCommand } from "./invocation.ts";
import { parseShell, type ShellWord } from "./shell-parse.ts";
import { expandGlob } from "./fs-paths.ts";
import type { Decision } from "../config/permission-schema.ts";

/** What permissions read off a tool definition (lib/tools/define.ts); every tool fits. */
export type GatedTool = { name: string; mutates: boolean; defaultDecision: Decision; subject: Pick<ToolSubject<never>, "kind" | "readsContent"> };

/**
 * The decision for a call no config rule matched: the tool's own default. A tool that mutates is
 * never allowed by default, even if its definition says so, so a mutating tool can never silently
 * skip approval.
 */
export function defaultDecision(tool: GatedTool, subject: string): Decision {
  if (isProtectedSecret(tool, subject)) return "deny"; // no cwd: a glob is judged by decideCall, which knows it
  return tool.mutates && tool.defaultDecision === "allow" ? "ask" : tool.defaultDecision;
}

/** Where a secrets file may be named inside a word: `--include=.env`, `if=.env`, `open('.env')`, `HEAD:.env`. */
const INSIDE_A_WORD = /[\s;|&<>()'"`$={}:,]+/;

/**
 * A path tool that shows the file's content (read_file) given `.env`, `.env.*` (not `.env.example`)
 * or `*.pem`, and a command that names one (`cat .env`, `source .env.local`, `grep KEY < .env`).
 * Denied before config rules are consulted: a broad `"*": "allow"` written for convenience must
 * not open the secrets file too. A command's words are read by the shell parser, nested scripts
 * and heredocs included, and each is also looked through for a name inside it (`HEAD:.env` names
 * `.env`, so `git show HEAD:.env` is refused: masking a file does not hide its blobs). With `cwd`,
 * a glob is expanded on disk as bash would (`cat .e*`, `cat .[e]nv`). This is a check of the
 * words, not a sandbox: what a program opens on its own (`grep -r KEY .`) is not seen.
 */
export function isProtectedSecret(tool: Pick<GatedTool, "subject">, subject: string, cwd?: string): boolean {
  switch (tool.subject.kind) {
    case "path":
      return tool.subject.readsContent === true && isSensitivePath(subject);
    case "command":
      return (
        shellWords(subject).some((word) => word.text.split(INSIDE_A_WORD).some((part) => part !== "" && isSensitivePath(part))) ||
        (cwd !== undefined && globsNameSecrets(subject, cwd))
      );
    case "pattern":
    case "text":
      return false;
    default:
      return tool.subject.kind satisfies never;
  }
}

/**
 * True when a glob in the command matches a secrets file on disk now, read from the directory the
 * command is in at that point (`cd sub && cat .e*` looks in sub). After a `cd` that cannot be
 * followed, a glob whose last part could match a secrets name (`.e*`, `*.pem`) counts.
 */
function globsNameSecrets(command: string, start: string, depth = 0): boolean {
  if (depth > 6) return false;
  const parsed = parseShell(command);
  let cwd: string | undefined = start;
  const matches = (word: ShellWord) => {
    if (!word.glob) return false;
    if (cwd === undefined || !posix.isAbsolute(cwd)) return couldNameSecret(word.text);
    return (expandGlob(posix.resolve(cwd, word.text)) ?? []).some((match) => isSensitivePath(match));
  };
  for (const inner of parsed.substitutions) if (globsNameSecrets(inner, cwd ?? start, depth + 1)) return true;
  for (const simple of parsed.commands) {
    const inv = unwrapCommand(simple.words);
    if (inv?.name === "cd") {
      const target = inv.args.find((arg) => !arg.text.startsWith("-"));
      cwd = target && !target.expands && !target.glob && cwd !== undefined && !target.text.startsWith("~") ? posix.resolve(cwd, target.text) : undefined;
      continue;
    }
    if (simple.words.some(matches) || simple.redirects.some((r) => r.target !== undefined && matches(r.target))) return true;
    for (const script of inv?.scripts ?? []) if (globsNameSecrets(script, cwd ?? start, depth + 1)) return true;
    const shellScript = inv && SHELLS.has(inv.name) ? shellScriptWord(inv.args)?.text : undefined;
    if (shellScript !== undefined && globsNameSecrets(shellScript, cwd ?? start, depth + 1)) return true;
  }
  return false;
}

/** Names a secrets file could have, to test a glob against when its directory is unknown. */
const SECRET_NAMES = [".env", ".env.local", ".env.production", "x.pem", "x.key", "id_rsa", "id_ed25519"];

function couldNameSecret(glob: string): boolean {
  const last = glob.replace(/\/+$/, "").split("/").pop() ?? glob;
  try {
    const pattern = new Bun.Glob(last);
    return SECRET_NAMES.some((name) => (name.startsWith(".") && !last.startsWith(".") ? false : pattern.match(name)));
  } catch {
    return false;
  }
}
