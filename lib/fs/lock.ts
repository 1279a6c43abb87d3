import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { ShiroError } from "../errors.ts";
import { isHolderAlive, systemProbe, type Holder, type LivenessProbe } from "./process-alive.ts";

// Lock files, as sessions (lib/sessions/ownership.ts: held for a process's life, never waited
// for) and project memory (withFileLock: held for one read-modify-write, waited for) use them.
// Each holds its holder as JSON with the pid and the process's start time, so a lock left by a
// dead process is recognised as such even when its pid has been reused.

/** A lock's holder; `host` is written by withFileLock (a shared home may be mounted on several machines). */
export type LockHolder = Holder & { host?: string };

/** A lock older than this is presumed abandoned (a hung or suspended holder) and taken over. */
export const LOCK_STALE_MS = 10_000;
/** How long to wait for a live holder before giving up. Longer than LOCK_STALE_MS, so a stale lock is always taken over first. */
export const LOCK_WAIT_MS = 15_000;

export type LockOptions = {
  staleMs?: number;
  waitMs?: number;
  probe?: LivenessProbe;
};

/**
 * Runs `fn` while holding `lockPath`, an exclusive lock file created with O_EXCL, and removes it
 * afterwards (only if it is still ours). The directory must exist.
 *
 * A lock is taken over when its holder is a dead process on this host (pid and start time, see
 * isHolderAlive), or when it is older than `staleMs`. Takeover goes through removeIfUnchanged. (A
 * third process locking in the microseconds between its two steps could still share the lock; the
 * window needs a stale lock and three contenders, and the cost is one lost update, not a torn file.)
 *
 * Throws ShiroError("state") when a live holder keeps the lock past `waitMs`, naming the file to delete.
 */
export async function withFileLock<T>(lockPath: string, fn: () => T | Promise<T>, opts: LockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? LOCK_STALE_MS;
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const probe = opts.probe ?? systemProbe;
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const mine = JSON.stringify({ ...probe.self, host: hostname(), token });
  const started = Date.now();
  let delay = 2;
  for (;;) {
    if (tryCreate(lockPath, mine)) break;
    const current = readLock(lockPath);
    if (current !== undefined && isStale(lockPath, current, staleMs, probe)) {
      removeIfUnchanged(lockPath, current);
      continue;
    }
    if (Date.now() - started > waitMs) {
      const holder = current === undefined ? undefined : parseLockHolder(current);
      const who = holder ? `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ""}` : "another process";
      throw new ShiroError("state", `${lockPath} is held by ${who}. If no shiro is running, delete that file and try again.`);
    }
    await Bun.sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await fn();
  } finally {
    releaseLock(lockPath, mine);
  }
}

/** The holder a lock names, or undefined for anything else (an empty lock, garbage, an older format). */
export function parseLockHolder(raw: string): LockHolder | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (Number.isInteger(value.pid) && (value.pid as number) > 0 && Number.isFinite(value.startedAt)) {
      const holder: LockHolder = { pid: value.pid as number, startedAt: value.startedAt as number };
      if (typeof value.host === "string") holder.host = value.host;
      return holder;
    }
  } catch {}
  return undefined;
}

/** The lock's content, or undefined when it is gone. */
export function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock without ever removing a fresh one: rename it to a private name, then
 * check that the content is what was judged stale. If another process had already replaced it
 * with its own live lock, put that back (link fails harmlessly if yet another lock appeared).
 */
export function removeIfUnchanged(path: string, judgedStale: string): void {
  const aside = `${path}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already
  }
  if (readLock(aside) !== judgedStale) {
    try {
      linkSync(aside, path);
    } catch {}
  }
  try {
    unlinkSync(aside);
  } catch {}
}

/** Removes the lock if it still holds `content`, i.e. is still ours. Never throws. */
export function releaseLock(path: string, content: string): void {
  try {
    if (readFileSync(path, "utf8") === content) unlinkSync(path);
  } catch {}
}

function tryCreate(lockPath: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function isStale(lockPath: string, content: string, staleMs: number, probe: LivenessProbe): boolean {
  const holder = parseLockHolder(content);
  if (holder && holder.host === hostname() && !isHolderAlive(holder, probe)) return true;
  try {
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false; // gone already: the next create attempt decides
  }
}
