import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ShiroError } from "../errors.ts";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { withFileLock, type LockOptions } from "../fs/lock.ts";
import { readJsonFile } from "../fs/read-json.ts";
import { MemoryFile, type MemoryEntry } from "./schema.ts";
import { memoryStorePath } from "./store-path.ts";

export type MemoryStoreOptions = {
  /** shiro's home directory (`shiroHome(env)`, i.e. `$SHIRO_HOME`). */
  home: string;
  /** The git top-level containing the cwd, or the cwd outside a repository (`runtime.workspace.root`). */
  projectRoot: string;
  /** Clock for createdAt / lastHitAt / set-aside names. */
  now?: () => Date;
  /** Id for a new note. Defaults to a UUIDv7, which sorts by creation time. */
  newId?: () => string;
  /** Told about a corrupt store found and set aside during a write (the read at open returns its notice instead). */
  onNotice?: (message: string) => void;
  lock?: LockOptions;
};

/** What a change returns: new entries to write (omit to write nothing) and a value for the caller. */
export type MemoryChange<T> = { entries?: MemoryEntry[]; result: T };

export type MemoryStore = {
  /** The JSON file; it may not exist yet. */
  readonly path: string;
  readonly projectRoot: string;
  readonly now: () => Date;
  readonly newId: () => string;
  /**
   * The current notes, read from disk. Never creates a file or directory. A corrupt or unreadable
   * file is moved aside (under the lock) and reads as empty, with a notice for the user.
   */
  read(): Promise<{ entries: MemoryEntry[]; notice?: string }>;
  /**
   * Read-modify-write that loses nothing to a concurrent process: `change` is a pure function of
   * the current notes. It is first tried on an unlocked read; if it writes nothing, nothing is
   * locked or created. Otherwise it runs again on a fresh read under `<path>.lock` and its
   * result is written atomically. The directory is created only here, on the first write.
   */
  update<T>(change: (entries: readonly MemoryEntry[]) => MemoryChange<T>): Promise<T>;
};

/**
 * Opens a project's store and reads it once, for the boot block. Creates nothing: with
 * `--no-memory`, do not call this at all. Show `notice` to the user when present (the file was
 * corrupt and was moved aside; nothing was deleted).
 */
export async function openMemoryStore(opts: MemoryStoreOptions): Promise<{ store: MemoryStore; entries: MemoryEntry[]; notice?: string }> {
  const store = createMemoryStore(opts);
  const { entries, notice } = await store.read();
  return notice ? { store, entries, notice } : { store, entries };
}

/** The store object without reading anything (for `shiro memory path`, or to read later). */
export function createMemoryStore(opts: MemoryStoreOptions): MemoryStore {
  const path = memoryStorePath(opts.home, opts.projectRoot);
  const lockPath = `${path}.lock`;
  const now = opts.now ?? (() => new Date());
  const newId = opts.newId ?? (() => Bun.randomUUIDv7());

  /** Reads the file; a corrupt one is moved aside only when `locked`, so no reader moves a file a writer just replaced. */
  function load(locked: boolean): { status: "ok"; entries: MemoryEntry[]; notice?: string } | { status: "corrupt" } {
    const result = readJsonFile(path, MemoryFile, { setAside: locked, now });
    switch (result.status) {
      case "ok":
        return { status: "ok", entries: result.value.entries };
      case "missing":
        return { status: "ok", entries: [] };
      case "corrupt":
        if (!locked) return { status: "corrupt" };
        if (!result.movedTo) {
          throw new ShiroError("state", `project memory at ${path} cannot be read (${result.reason}) and could not be moved aside. Move or repair it by hand.`);
        }
        return {
          status: "ok",
          entries: [],
          notice: `Project memory at ${path} could not be read (${result.reason}). It was moved to ${result.movedTo} and a fresh store started; nothing was deleted.`,
        };
      default:
        return result satisfies never;
    }
  }

  async function lockedLoad<T>(fn: (entries: MemoryEntry[]) => T): Promise<{ value: T; notice?: string }> {
    mkdirSync(dirname(path), { recursive: true });
    return withFileLock(
      lockPath,
      () => {
        const loaded = load(true);
        if (loaded.status !== "ok") throw new Error("unreachable: a locked load sets a corrupt file aside");
        return { value: fn(loaded.entries), notice: loaded.notice };
      },
      opts.lock,
    );
  }

  const store: MemoryStore = {
    path,
    projectRoot: opts.projectRoot,
    now,
    newId,
    async read() {
      const loaded = load(false);
      if (loaded.status === "ok") return { entries: loaded.entries };
      const { value, notice } = await lockedLoad((entries) => entries);
      return notice ? { entries: value, notice } : { entries: value };
    },
    async update(change) {
      const unlocked = load(false);
      if (unlocked.status === "ok") {
        const attempt = change(unlocked.entries);
        if (!attempt.entries) return attempt.result;
      }
      const { value, notice } = await lockedLoad((entries) => {
        const applied = change(entries);
        if (applied.entries) writeStateFileSync(path, serializeMemory(applied.entries));
        return applied.result;
      });
      if (notice) opts.onNotice?.(notice);
      return value;
    },
  };
  return store;
}

/** The file as written: pretty-printed, one key per line, trailing newline. */
export function serializeMemory(entries: readonly MemoryEntry[]): string {
  const file: MemoryFile = { version: 1, entries: [...entries] };
  return JSON.stringify(file, null, 2) + "\n";
}
