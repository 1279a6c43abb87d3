import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { recordProblem, SessionId, SessionRecord } from "./schema.ts";
import { parseSession, serializeSession } from "./serialize.ts";
import { idFromFileName, jobsDir, sessionPath, sessionsDir } from "./paths.ts";
import { removeTranscript } from "./transcript-log.ts";
import { removeUndoJournal } from "./undo/journal.ts";

export type LoadResult =
  | { status: "ok"; record: SessionRecord }
  | { status: "missing"; path: string }
  /** The file exists but cannot be used. It is left where it is: never moved, never rewritten. */
  | { status: "corrupt"; path: string; reason: string };

/**
 * Writes a record atomically (temp file + fsync + rename, lib/fs/atomic-write.ts): a crash at
 * any moment leaves the previous complete file or the new one. Synchronous, so it can run in an
 * exit handler. The record is validated first; an invalid one is a bug and throws without
 * touching the file. Only the process holding the session (ownership.ts) may call this.
 */
export function saveSession(home: string, record: SessionRecord): void {
  writeStateFileSync(sessionPath(home, record.id), prepare(home, record), { mode: 0o600 });
}

/** Throws when a record is not valid: saving one is a bug, and the file is left as it was. */
export function checkRecord(record: SessionRecord): void {
  const problem = recordProblem(record);
  if (problem) throw new Error(`refusing to save session ${record.id}: ${problem}`);
}

function prepare(home: string, record: SessionRecord): string {
  checkRecord(record);
  mkdirSync(sessionsDir(home), { recursive: true, mode: 0o700 });
  return serializeSession(record);
}

/** Reads and validates one session. Never throws. */
export function loadSession(home: string, id: string): LoadResult {
  const path = sessionPath(home, v.is(SessionId, id) ? id : "invalid-id");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { status: "missing", path };
    const reason = error instanceof TypeError ? "not valid UTF-8" : `unreadable (${(error as Error).message})`;
    return { status: "corrupt", path, reason };
  }
  const parsed = parseSession(text);
  if (!parsed.ok) return { status: "corrupt", path, reason: parsed.reason };
  if (parsed.record.id !== id) return { status: "corrupt", path, reason: `the id inside (${parsed.record.id}) does not match the file name` };
  return { status: "ok", record: parsed.record };
}

/** Every session id on disk (from file names; nothing is read), newest created first. */
export function listSessionIds(home: string): string[] {
  let names: string[];
  try {
    names = readdirSync(sessionsDir(home));
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const name of names) {
    const id = idFromFileName(name);
    if (id) ids.push(id);
  }
  return ids.sort().reverse();
}

/**
 * Deletes a session file, and its undo journal and its jobs' output with it. Returns false when there was none. Does not check ownership: use
 * isSessionHeld first (cmd refuses to delete a session another shiro has open).
 */
export function removeSession(home: string, id: string): boolean {
  if (!v.is(SessionId, id)) return false;
  removeUndoJournal(home, id);
  rmSync(jobsDir(home, id), { recursive: true, force: true }); // its background jobs' output
  removeTranscript(home, id);
  try {
    unlinkSync(sessionPath(home, id));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
