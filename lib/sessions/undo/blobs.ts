import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeStateFileSync } from "../../fs/atomic-write.ts";

/**
 * The kept file contents of an undo journal, `<journal>/blobs/<sha256>`: shiro's own files under
 * SHIRO_HOME, the only files the undo modules open by path (spec/architecture.test.ts). The
 * workspace's files are reached through lib/fs/confined-ops.ts.
 */
export type BlobStore = {
  /** Stores `bytes` under `hash` unless it is there already. */
  put(hash: string, bytes: Uint8Array): void;
  /** The content kept under `hash`. Throws when it is gone. */
  get(hash: string): Uint8Array;
  /** Removes every blob whose name is not in `keep`. */
  sweep(keep: ReadonlySet<string>): void;
};

export function openBlobStore(journalDir: string): BlobStore {
  const dir = join(journalDir, "blobs");
  const path = (hash: string) => join(dir, hash);
  return {
    put(hash, bytes) {
      if (existsSync(path(hash))) return;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeStateFileSync(path(hash), bytes, { mode: 0o600 });
    },
    get: (hash) => readFileSync(path(hash)),
    sweep(keep) {
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {}
      for (const name of names) if (!keep.has(name)) rmSync(path(name), { force: true });
    },
  };
}

/** Removes a journal directory whole (with its session). Never throws. */
export function removeJournalDir(journalDir: string): void {
  try {
    rmSync(journalDir, { recursive: true, force: true });
  } catch {}
}
