import { readdirSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { parseLockHolder, removeIfUnchanged } from "../fs/lock.ts";
import { isHolderAlive, pidExists, systemProbe, type LivenessProbe } from "../fs/process-alive.ts";
import { sessionsDir } from "./paths.ts";

/** A leftover older than this is removed even if its pid is alive again (pid reuse). */
const LEFTOVER_MAX_AGE_MS = 10 * 60_000;

// `.<id>.json.<pid>.<ms>.<n>.tmp` (atomic-write), `<id>.lock.<pid>.<ms>.<rand>.tmp` (ownership),
// `<id>.lock.stale.<pid>.<rand>` (ownership, mid take-over).
const LEFTOVER = /^(?:\.[0-9a-f-]{36}\.(?:json|transcript\.jsonl)\.(\d+)\.\d+\.\d+\.tmp|[0-9a-f-]{36}\.lock\.(\d+)\.\d+\.[0-9a-z]+\.tmp|[0-9a-f-]{36}\.lock\.stale\.(\d+)\.[0-9a-z]+)$/;
const LOCK = /^[0-9a-f-]{36}\.lock$/;
/** An undo journal (`<id>.undo/`): a leftover when its session was never saved or was removed by hand. */
const UNDO_DIR = /^([0-9a-f-]{36})\.(?:undo|transcript\.jsonl)$/;

/**
 * Tidies what a killed shiro leaves in the sessions directory: temp files of writes it never
 * finished, locks it never released, and undo journals and transcripts whose session file is gone (older than
 * LEFTOVER_MAX_AGE_MS and not held, so a new session's journal, written before its first save,
 * stays). Never touches a session file, a set-aside file, or anything of a live process. Best
 * effort; never throws. Returns how many went.
 */
export function sweepLeftovers(home: string, opts: { probe?: LivenessProbe; now?: number } = {}): number {
  const probe = opts.probe ?? systemProbe;
  const now = opts.now ?? Date.now();
  const dir = sessionsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    try {
      const leftover = LEFTOVER.exec(name);
      if (leftover) {
        const pid = Number(leftover[1] ?? leftover[2] ?? leftover[3]);
        if (pid === probe.self.pid) continue;
        if (!pidExists(pid, probe) || now - statSync(path).mtimeMs > LEFTOVER_MAX_AGE_MS) {
          unlinkSync(path);
          removed++;
        }
        continue;
      }
      const undo = UNDO_DIR.exec(name);
      if (undo) {
        const held = names.includes(`${undo[1]}.lock`) || names.includes(`${undo[1]}.json`);
        if (!held && now - statSync(path).mtimeMs > LEFTOVER_MAX_AGE_MS) {
          rmSync(path, { recursive: true, force: true });
          removed++;
        }
        continue;
      }
      if (LOCK.test(name)) {
        const raw = readFileSync(path, "utf8");
        const holder = parseLockHolder(raw);
        if (!holder || !isHolderAlive(holder, probe)) {
          removeIfUnchanged(path, raw);
          removed++;
        }
      }
    } catch {
      // vanished or unreadable: leave it
    }
  }
  return removed;
}
