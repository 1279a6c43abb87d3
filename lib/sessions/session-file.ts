import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { copyFile, mkdir, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { headerRoom, padHeader, sessionFileParts } from "./serialize.ts";
import type { SessionRecord } from "./schema.ts";

/**
 * One session's file, written so that a long session costs the loop little to save. Every write
 * makes a whole new file next to the old one and renames it into place, as before, so the file on
 * disk is always one complete JSON document, its summary first (serialize.ts), the previous one
 * or the new one whatever moment the process is killed. What changes is how the new file is made:
 *
 * - **In full**, from the record (the first save of a process, after the history was rewritten
 *   (/undo, /compact, the inline re-send), when the header outgrew its room, or whenever the file
 *   on disk is not the one this process last wrote).
 * - **From the previous file**, for the usual save after a step, where the history only grew (or
 *   only its last, unfinished step changed): the kernel copies the old file to the temporary one
 *   in the thread pool, the messages after the part both share are written over its end, and the
 *   header (padded to a fixed width, so it can be rewritten in place) over its start. The
 *   JavaScript thread encodes only the new messages and the header: a save of a 50 MB session
 *   costs the loop about what a save of a small one does (docs/performance.md).
 *
 * Only the process holding the session (ownership.ts) writes it.
 */
export type SessionFile = {
  /** Writes in full, synchronously, with an fsync (exit handlers, /save). Throws on failure. */
  saveSync(record: SessionRecord): void;
  /**
   * Writes in the thread pool, from the previous file when it can. `commit()` is asked just before
   * the rename: false (a newer save happened) drops this one. `durable`: fsync before the rename.
   * Resolves true when the file was replaced.
   */
  saveInBackground(record: SessionRecord, opts: { durable: boolean; commit: () => boolean }): Promise<boolean>;
};

/** What this process last wrote: enough to tell it is still the file on disk, and where each message ends in it. */
type Written = {
  ino: number;
  size: number;
  mtimeMs: number;
  headerWidth: number;
  messages: readonly object[];
  /** Byte offset just after the `[` that opens the messages. */
  start: number;
  /** Byte offset just after each message's JSON. */
  ends: number[];
};

let counter = 0;
const tempPath = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);

export function openSessionFile(path: string, mode = 0o600): SessionFile {
  let written: Written | undefined;

  /** The full file, and where its messages end. */
  function full(record: SessionRecord): { text: string; layout: Omit<Written, "ino" | "size" | "mtimeMs"> } {
    const parts = sessionFileParts(record);
    const headerWidth = headerRoom(parts.header);
    const head = `${padHeader(parts.header, headerWidth)}\n"messages":[`;
    const start = Buffer.byteLength(head);
    const ends: number[] = [];
    let at = start;
    for (let i = 0; i < parts.messages.length; i++) {
      at += (i > 0 ? 1 : 0) + parts.bytes[i]!;
      ends.push(at);
    }
    return { text: `${head}${parts.messages.join(",")}]${parts.rest}`, layout: { headerWidth, messages: [...record.messages], start, ends } };
  }

  return {
    saveSync(record) {
      const { text, layout } = full(record);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const tmp = tempPath(path);
      const fd = openSync(tmp, "w", mode);
      let info;
      try {
        const bytes = Buffer.from(text);
        let done = 0;
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
        fsyncSync(fd);
        info = fstatSync(fd);
        closeSync(fd);
        renameSync(tmp, path);
      } catch (error) {
        try {
          closeSync(fd);
        } catch {}
        try {
          unlinkSync(tmp);
        } catch {}
        written = undefined;
        throw error;
      }
      syncDirectory(dirname(path));
      written = { ...layout, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    },

    async saveInBackground(record, opts) {
      const base = written;
      const shared = base ? sharedPrefix(base.messages, record.messages) : 0;
      // Only the messages after the shared part are encoded (or looked up: each message's JSON is kept).
      const parts = sessionFileParts(record, shared);
      const incremental = base !== undefined && Buffer.byteLength(parts.header) <= base.headerWidth;
      const tmp = tempPath(path);
      let renamed = false;
      try {
        let layout: Omit<Written, "ino" | "size" | "mtimeMs">;
        const handleFor = async () => {
          if (incremental) {
            // The previous file is the base only while it is the one this process wrote last.
            const now = await stat(path).catch(() => undefined);
            if (now && now.ino === base.ino && now.size === base.size && now.mtimeMs === base.mtimeMs) {
              await copyFile(path, tmp);
              const handle = await open(tmp, "r+");
              const cut = shared === 0 ? base.start : base.ends[shared - 1]!;
              const added = parts.messages;
              const tail = `${shared > 0 && added.length > 0 ? "," : ""}${added.join(",")}]${parts.rest}`;
              const ends = base.ends.slice(0, shared);
              let at = cut;
              for (let i = 0; i < added.length; i++) {
                at += (shared + i > 0 ? 1 : 0) + parts.bytes[i]!;
                ends.push(at);
              }
              const bytes = Buffer.from(tail);
              await handle.write(bytes, 0, bytes.length, cut);
              await handle.truncate(cut + bytes.length);
              const header = Buffer.from(padHeader(parts.header, base.headerWidth));
              await handle.write(header, 0, header.length, 0);
              layout = { headerWidth: base.headerWidth, messages: [...record.messages], start: base.start, ends };
              return handle;
            }
          }
          const made = full(record);
          layout = made.layout;
          const handle = await open(tmp, "w", mode).catch(async (error: NodeJS.ErrnoException) => {
            if (error.code !== "ENOENT") throw error;
            await mkdir(dirname(path), { recursive: true, mode: 0o700 });
            return open(tmp, "w", mode);
          });
          await handle.write(made.text);
          return handle;
        };
        const handle = await handleFor();
        let info;
        try {
          if (opts.durable) await handle.sync();
          info = await handle.stat();
        } finally {
          await handle.close();
        }
        if (!opts.commit()) return false;
        await rename(tmp, path);
        renamed = true;
        written = { ...layout!, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
        if (opts.durable) await syncDirectoryAsync(dirname(path));
        return true;
      } catch (error) {
        written = undefined; // whatever the disk holds now, the next save starts from the record
        throw error;
      } finally {
        if (!renamed) await rm(tmp, { force: true });
      }
    },
  };
}

/** How many messages at the start of `next` are the very objects of `before` (messages are never changed in place). */
function sharedPrefix(before: readonly object[], next: readonly object[]): number {
  const n = Math.min(before.length, next.length);
  let i = 0;
  while (i < n && before[i] === next[i]) i++;
  return i;
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  }
}

async function syncDirectoryAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // as above
  }
}

