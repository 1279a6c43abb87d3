import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isHolderAlive, selfHolder } from "../fs/process-alive.ts";

/** A session's /tmp on this machine: `shiro-sandbox-tmp-<pid>-<start ms>-XXXXXX`, so a later shiro can tell whose it was. */
const TMP_PREFIX = "shiro-sandbox-tmp-";

/**
 * Where this user's sandboxes keep their /tmp: one private folder (`shiro-sandbox-<uid>`, mode
 * 0700) in the system temp dir, so finding the ones left behind reads that folder only, not a
 * /tmp of many thousands of entries. A folder of that name that is not a plain directory owned by
 * this user and closed to others is not used: the sandbox's /tmp is then made in the temp dir
 * itself, and nothing is swept.
 */
function tmpParent(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const parent = join(tmpdir(), `shiro-sandbox-${uid}`);
  try {
    mkdirSync(parent, { mode: 0o700 });
  } catch {
    // there already, or cannot be made: checked below
  }
  try {
    const info = lstatSync(parent);
    return info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0 ? parent : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the /tmp directories of sandboxes whose shiro is gone without cleaning up (killed with
 * SIGKILL, a crash): the process's exit removes its own, but nothing else can.
 */
function sweepStaleTmp(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = new RegExp(`^${TMP_PREFIX}(\\d+)-(\\d+)-`).exec(name);
    if (!owner || isHolderAlive({ pid: Number(owner[1]), startedAt: Number(owner[2]) })) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // a folder inside it its owner made unwritable: left for the user; it must not stop this sandbox
    }
  }
}

/**
 * A new /tmp for this session's sandbox, in this user's private folder when there is one (whose
 * folders left by shiros that are gone are swept first), else in the system temp dir.
 */
export function makeSandboxTmp(): string {
  const parent = tmpParent();
  if (parent) sweepStaleTmp(parent);
  const self = selfHolder();
  return mkdtempSync(join(parent ?? tmpdir(), `${TMP_PREFIX}${self.pid}-${self.startedAt}-`));
}
