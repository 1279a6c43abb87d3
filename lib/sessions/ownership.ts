import { linkSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { parseLockHolder, readLock, releaseLock, removeIfUnchanged } from "../fs/lock.ts";
import { isHolderAlive, systemProbe, type LivenessProbe } from "../fs/process-alive.ts";
import { lockPath, sessionsDir } from "./paths.ts";

export type Acquired = { ok: true; release: () => void } | { ok: false; holderPid: number };

const ATTEMPTS = 5;

/**
 * Claims a session for this process, so that two shiro processes never write the same file:
 * `<sessions>/<id>.lock` holds the owner's pid and start time. When another live process holds
 * it, returns `{ ok: false, holderPid }` and the caller forks. A lock whose holder is dead
 * (crash, kill -9, reboot) is taken over.
 *
 * The lock is created complete or not at all (written to a temp file, then hard-linked into
 * place, which fails if the name exists), and a stale one is removed with removeIfUnchanged
 * (lib/fs/lock.ts), so two processes racing for the same stale lock cannot both win.
 *
 * `release()` removes the lock only if it is still ours; idempotent, synchronous, never throws —
 * call it from exit handlers. A process that already holds a session gets `ok: false` with its
 * own pid: release before acquiring again.
 */
export function acquireSession(home: string, id: string, probe: LivenessProbe = systemProbe): Acquired {
  const path = lockPath(home, id);
  const content = JSON.stringify(probe.self);
  mkdirSync(sessionsDir(home), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${probe.self.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (tryCreate(tmp, path, content)) return { ok: true, release: () => releaseLock(path, content) };
      const raw = readLock(path);
      if (raw === undefined) continue; // released between our attempt and the read
      const holder = parseLockHolder(raw);
      if (holder && isHolderAlive(holder, probe)) return { ok: false, holderPid: holder.pid };
      removeIfUnchanged(path, raw);
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {}
  }
  // Only reachable when other processes keep replacing the lock under us: treat as held.
  const holder = parseLockHolder(readLock(path) ?? "");
  return { ok: false, holderPid: holder?.pid ?? 0 };
}

/** The live process holding a session, if any. Read-only: a stale lock is reported as not held and left alone. */
export function sessionHolder(home: string, id: string, probe: LivenessProbe = systemProbe): number | undefined {
  const holder = parseLockHolder(readLock(lockPath(home, id)) ?? "");
  return holder && isHolderAlive(holder, probe) ? holder.pid : undefined;
}

function tryCreate(tmp: string, path: string, content: string): boolean {
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // File systems without hard links: exclusive create. A crash between create and write
    // leaves an empty lock, which reads as stale.
    try {
      writeFileSync(path, content, { flag: "wx", mode: 0o600 });
      return true;
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw inner;
    }
  }
}
