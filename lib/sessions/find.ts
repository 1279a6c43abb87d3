import { ShiroError } from "../errors.ts";
import type { SessionRecord } from "./schema.ts";
import { newestForCwd } from "./list.ts";
import { sessionPath } from "./paths.ts";
import { hexDigits, shortestUniquePrefix } from "./prefix.ts";
import { readSessionSummary } from "./read-summary.ts";
import { sessionHolder } from "./ownership.ts";
import type { LivenessProbe } from "../fs/process-alive.ts";
import { listSessionIds, loadSession, removeSession } from "./store.ts";


/** The command the messages below name for listing every session; the REPL names its own (inLoop). */
const LIST_ALL = "shiro sessions --all";

/** A message of this module as the interactive loop says it, where the list is `/sessions --all`. */
export function inLoop(message: string): string {
  return message.replaceAll(LIST_ALL, "/sessions --all");
}

/** Candidates named in an "ambiguous" error before the rest are counted. */
const MAX_CANDIDATES_SHOWN = 5;

/**
 * The id a user means by `input`: a full id, or a prefix of exactly one id (dashes optional,
 * any case). Matches file names only, so a corrupt session can still be named (to remove it,
 * or to be told it is corrupt). Throws ShiroError("usage") when nothing or several match; the
 * message lists the candidates by their shortest unique prefix and title.
 */
export function resolveSessionId(home: string, input: string): string {
  const wanted = hexDigits(input.trim());
  if (!/^[0-9a-f]+$/.test(wanted)) {
    throw new ShiroError("usage", `"${input}" is not a session id: ids are hex digits, like 0193ab2c. Run: ${LIST_ALL}`);
  }
  const allIds = listSessionIds(home);
  const matches = allIds.filter((id) => hexDigits(id).startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new ShiroError("usage", `No session matching "${input}". Run: ${LIST_ALL}`);
  const shown = matches.slice(0, MAX_CANDIDATES_SHOWN).map((id) => {
    const summary = readSessionSummary(sessionPath(home, id));
    const title = summary.status === "ok" ? JSON.stringify(summary.summary.title || "(untitled)") : "(corrupt)";
    return `${shortestUniquePrefix(id, allIds)} ${title}`;
  });
  const more = matches.length > MAX_CANDIDATES_SHOWN ? `, and ${matches.length - MAX_CANDIDATES_SHOWN} more` : "";
  throw new ShiroError("usage", `"${input}" matches ${matches.length} sessions: ${shown.join(", ")}${more}. Use a longer prefix.`);
}

/** `shiro -r <id>`, `/resume <id>`, `sessions show|export <id>`: resolve, then load. Throws ShiroError("usage") if missing, ambiguous or corrupt. */
export function findSession(home: string, idOrPrefix: string): SessionRecord {
  return loadOrThrow(home, resolveSessionId(home, idOrPrefix));
}

/** `shiro -c` (with `withMessages`), `shiro undo`: the newest session whose cwd is exactly `cwd` (see newestForCwd). Throws ShiroError("usage") when there is none or it is corrupt. */
export function continueSession(home: string, cwd: string, opts: { withMessages?: boolean; onSkipped?: (warning: string) => void } = {}): SessionRecord {
  const skipped: string[] = [];
  const newest = newestForCwd(home, cwd, { ...opts, onSkipped: (warning) => skipped.push(warning) });
  if (!newest) {
    // A damaged file may be the session looked for: named in the error, which is all the caller shows.
    const damaged = skipped.length > 0 ? `, or none that can be read (${skipped.length === 1 ? "a session file is" : `${skipped.length} session files are`} damaged: shiro sessions names them)` : "";
    throw new ShiroError("usage", `No saved session for ${cwd} yet${damaged}. Start one with shiro, or pick one from another directory: ${LIST_ALL}`);
  }
  for (const warning of skipped) opts.onSkipped?.(warning);
  return loadOrThrow(home, newest.id);
}

function loadOrThrow(home: string, id: string): SessionRecord {
  const result = loadSession(home, id);
  switch (result.status) {
    case "ok":
      return result.record;
    case "missing":
      throw new ShiroError("usage", `Session ${id} was deleted a moment ago. Run: ${LIST_ALL}`);
    case "corrupt":
      throw new ShiroError("usage", `Session ${id} is corrupt (${result.reason}). The file is ${result.path}: fix it or delete it.`);
    default:
      return result satisfies never;
  }
}

/**
 * `shiro sessions rm <id>`: resolves, refuses a session another live shiro has open, deletes
 * the file (corrupt or not). Returns the id removed. Throws ShiroError("usage") otherwise.
 */
export function deleteSession(home: string, idOrPrefix: string, probe?: LivenessProbe): string {
  const id = resolveSessionId(home, idOrPrefix);
  const holder = sessionHolder(home, id, probe);
  if (holder !== undefined) {
    throw new ShiroError("usage", `Session ${id} is open in another shiro (pid ${holder}). Quit that one first, then remove it.`);
  }
  if (!removeSession(home, id)) throw new ShiroError("usage", `Session ${id} was deleted a moment ago. Run: ${LIST_ALL}`);
  return id;
}
