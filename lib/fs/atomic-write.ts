import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

// Atomic writes of shiro's own state files (sync, fsynced, private). The user's workspace files
// are written by writeConfined (confined-ops.ts), which also keeps them inside the workspace.

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
