import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { acquireSession } from "./ownership.ts";
import { undoDir } from "./paths.ts";
import { forkRecord } from "./record.ts";
import type { SessionRecord } from "./schema.ts";
import { saveSession } from "./store.ts";
import { copyTranscript } from "./transcript-log.ts";

/**
 * A copy of `source` saved under a new id (`/fork`, `--fork`, `shiro sessions fork`): the same
 * messages, task list, title and spend so far, `forkedFrom` naming the parent and `forkedAt` the
 * number of messages it had, and a copy of its undo journal so /undo and /rewind work in the copy.
 * Nothing is shared: every file of the copy is its own, written atomically (blobs first, then the
 * journal that names them, then the session), so a crash leaves either no copy or a whole one,
 * and the parent is only read. Returns the saved copy.
 */
export function forkSession(home: string, source: SessionRecord, opts: { now?: Date; newId?: () => string } = {}): SessionRecord {
  const id = (opts.newId ?? (() => Bun.randomUUIDv7()))();
  const held = acquireSession(home, id);
  try {
    copySessionJournal(home, source.id, id);
    const record = forkRecord(source, { id, now: opts.now ?? new Date() });
    saveSession(home, record);
    return record;
  } finally {
    if (held.ok) held.release();
  }
}

/** Copies session `from`'s undo journal and transcript (lib/sessions/transcript-log.ts) to session `to`, a fork of it: /undo, /rewind and the transcript view then work in the copy. */
export function copySessionJournal(home: string, from: string, to: string): void {
  copyUndoJournal(undoDir(home, from), undoDir(home, to));
  copyTranscript(home, from, to);
}

/** Copies a journal: the manifest is read first, then the contents it may name, then the manifest is written. A missing journal copies as none. */
function copyUndoJournal(from: string, to: string): void {
  let manifest: Buffer;
  try {
    manifest = readFileSync(join(from, "journal.json"));
  } catch {
    return;
  }
  const blobs = join(from, "blobs");
  let names: string[] = [];
  try {
    names = existsSync(blobs) ? readdirSync(blobs) : [];
  } catch {}
  for (const name of names) {
    if (!/^[0-9a-f]{64}$/.test(name)) continue; // a temp file of a write under way
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(blobs, name));
    } catch {
      continue; // swept meanwhile: the parent no longer needs it
    }
    writeStateFileSync(join(to, "blobs", name), bytes, { mode: 0o600 });
  }
  writeStateFileSync(join(to, "journal.json"), manifest, { mode: 0o600 });
}
