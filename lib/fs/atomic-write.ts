import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

// Two atomic writes with different contracts, kept apart by name: shiro's own state files
// (sync, fsynced, private) and the user's workspace files (async, the user's mode and symlinks kept).

let counter = 0;

/**
 * Writes a file so that a reader (or a crash at any moment) sees either the old complete file
 * or the new complete file, never a torn one: write a temp file in the same directory, fsync
 * it, rename over the target, fsync the directory. Creates the directory if needed.
 * The file ends up with mode 0600 (or `opts.mode`); a symlink at `path` is replaced, not followed. Synchronous on purpose: callers use it from exit handlers too.
 */
export function writeStateFileSync(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  const fd = openSync(tmp, "w", opts.mode ?? 0o600);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  }
}

/**
 * An atomic replace for saves that a durable one follows soon (the session after a tool step,
 * which the 400 ms timer writes again with writeStateFileSync), with all the disk work in the
 * thread pool: the temp file is written, `commit()` says whether the write is still wanted (a
 * newer save makes it stale: the temp file is removed and this resolves false), and the rename
 * happens. No fsync: a killed process leaves the old file or the new one (the rename is atomic and
 * the page cache outlives the process); only a power cut before the durable save can leave the old
 * one. An fsync here queued ahead of the next step's own work and cost about 8 ms a step, and a
 * rename on this thread about 1 ms (replacing a file on ext4 starts the new file's write-back).
 *
 * Because the rename is asynchronous, a synchronous save can land between `commit()` and the
 * rename and then be replaced by this older content: the caller checks afterwards whether one
 * did and writes the newest state again (live-session.ts).
 */
export async function writeStateFileInBackground(path: string, data: string, opts: { mode?: number; commit: () => boolean }): Promise<boolean> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  let renamed = false;
  try {
    // The directory almost always exists: make it only when the write says it does not.
    const write = () => writeFile(tmp, data, { mode: opts.mode ?? 0o600 });
    await write().catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      await mkdir(dir, { recursive: true });
      return write();
    });
    if (!opts.commit()) return false;
    await rename(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) await rm(tmp, { force: true });
  }
  return true;
}

/**
 * Writes `content` so readers see either the old file or the new one, never half of it: a temp
 * file in the same directory, then rename over the target. Creates missing parent directories,
 * keeps an existing file's permission bits, and writes through a symlink to its target rather than
 * replacing the link. Returns whether the file existed before.
 */
export async function writeWorkspaceFile(path: string, content: string | Uint8Array): Promise<{ existed: boolean }> {
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(target)}.${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex")}.shiro-tmp`);
  try {
    await writeFile(temp, content);
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { existed: mode !== undefined };
}
