import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

/** A lock older than this is presumed abandoned (a hung or suspended holder) and taken over. */
export const LOCK_STALE_MS = 10_000;
/** How long to wait for a live holder before giving up. Longer than LOCK_STALE_MS, so a stale lock is always taken over first. */
export const LOCK_WAIT_MS = 15_000;

export type LockOptions = {
  staleMs?: number;
  waitMs?: number;
};

type Holder = { pid: number; host: string; token: string };

/**
 * Runs `fn` while holding `lockPath`, an exclusive lock file created with O_EXCL, and removes it
 * afterwards (only if it is still ours). The directory must exist.
 *
 * A lock is taken over when its holder is a dead process on this host, or when it is older than
 * `staleMs`. Takeover renames the file away and checks it is the very lock judged stale before
 * deleting it; had another process re-locked meanwhile, that lock is put back. (A third process
 * locking in the microseconds between those two steps could still share the lock; the window
 * needs a stale lock and three contenders, and the cost is one lost update, not a torn file.)
 *
 * Throws when a live holder keeps the lock past `waitMs`, naming the file to delete.
 */
export async function withFileLock<T>(lockPath: string, fn: () => T | Promise<T>, opts: LockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? LOCK_STALE_MS;
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const me: Holder = { pid: process.pid, host: hostname(), token: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  const mine = JSON.stringify(me);
  const started = Date.now();
  let delay = 2;
  for (;;) {
    if (tryCreate(lockPath, mine)) break;
    const current = readLock(lockPath);
    if (current !== undefined && isStale(lockPath, current, staleMs)) {
      takeOver(lockPath, current);
      continue;
    }
    if (Date.now() - started > waitMs) {
      const holder = current === undefined ? undefined : parseHolder(current);
      const who = holder ? `process ${holder.pid} on ${holder.host}` : "another process";
      throw new Error(`${lockPath} is held by ${who}. If no shiro is running, delete that file and try again.`);
    }
    await Bun.sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await fn();
  } finally {
    if (readLock(lockPath) === mine) {
      try {
        unlinkSync(lockPath);
      } catch {}
    }
  }
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

/** The lock's content, or undefined when it vanished. An empty string is a lock being written right now. */
function readLock(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, "utf8");
  } catch {
    return undefined;
  }
}

function parseHolder(content: string): Holder | undefined {
  try {
    const value = JSON.parse(content);
    return typeof value?.pid === "number" && typeof value?.host === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lockPath: string, content: string, staleMs: number): boolean {
  const holder = parseHolder(content);
  if (holder && holder.host === hostname() && !isAlive(holder.pid)) return true;
  try {
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false; // gone already: the next create attempt decides
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

function takeOver(lockPath: string, staleContent: string): void {
  const aside = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // someone else moved it first
  }
  if (readLock(aside) !== staleContent) {
    // Not the lock we judged: a live holder re-locked in between. Put it back unless a newer one exists.
    try {
      linkSync(aside, lockPath);
    } catch {}
  }
  try {
    unlinkSync(aside);
  } catch {}
}
