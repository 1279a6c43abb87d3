import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, readdirSync, readlinkSync, readSync, renameSync, rmdirSync, unlinkSync, writeSync, type Dirent, type Stats } from "node:fs";
import { dirname } from "node:path";
import { ToolError } from "../errors.ts";
import { changed, inDir, lstatAt, OutsideError, resolveConfined, type Confined, type Resolved } from "./confined.ts";
import { isSensitivePath, SECRETS_FILES } from "./sensitive-path.ts";

// The file operations of the file tools and undo, each confined to the workspace by what it opens
// (confined.ts). A secrets file is refused by the name actually reached, after any link.

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/** Walks again when a name turns into a link between the look and the open (someone is swapping it). */
const RETRIES = 3;

export type FileKind = "file" | "dir" | "other";
/** What is at a path: nothing, or a file, folder or other thing with its real path. */
export type Found = { kind: "missing" } | { kind: FileKind; real: string; size: number; mode: number; mtimeMs: number };

function kindOf(stats: Stats): FileKind {
  return stats.isFile() ? "file" : stats.isDirectory() ? "dir" : "other";
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

const isMissing = (error: unknown) => errno(error) === "ENOENT" || errno(error) === "ENOTDIR";

function describe(real: string, stats: Stats): Found {
  return { kind: kindOf(stats), real, size: stats.size, mode: stats.mode & 0o7777, mtimeMs: stats.mtimeMs };
}

function refuseSecrets(where: Confined, abs: string, resolved: Resolved): void {
  if (resolved.name !== "." && isSensitivePath(resolved.name)) {
    resolved.close();
    throw new ToolError(`${where.tool ? `${where.tool}: ` : ""}${abs} leads to a secrets file (${SECRETS_FILES}), which shiro does not read or change.`);
  }
}

/** Runs `body` on the resolved path, walking again (up to RETRIES) when it lost a race to a name being swapped. */
function withResolved<T>(where: Confined, abs: string, opts: { followLast: boolean; create?: boolean; made?: (abs: string) => void }, body: (r: Resolved) => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      const resolved = resolveConfined(where, abs, opts);
      refuseSecrets(where, abs, resolved);
      try {
        return body(resolved);
      } finally {
        resolved.close();
      }
    } catch (error) {
      const lostRace = errno(error) === "ELOOP" || errno(error) === "ECHANGED";
      if (!lostRace) throw error;
      if (attempt >= RETRIES) throw new OutsideError(`${where.tool ? `${where.tool}: ` : ""}${abs} kept changing while shiro opened it (a link swapped in and out); nothing was done.`);
    }
  }
}

/** What is at `abs` (a link inside the workspace followed), without opening it. */
export function statConfined(where: Confined, abs: string): Found {
  try {
    return withResolved(where, abs, { followLast: true }, (r) => {
      if (r.name === ".") return describe(r.real, fstatSync(r.dir.fd));
      const stats = r.last;
      if (!stats) return { kind: "missing" } as const;
      if (stats.isSymbolicLink()) throw changed(abs);
      return describe(r.real, stats);
    });
  } catch (error) {
    if (isMissing(error)) return { kind: "missing" };
    throw error;
  }
}

/** The link itself at `abs` (not followed), or undefined. Folders on the way are confined. */
export function lstatConfined(where: Confined, abs: string): Stats | undefined {
  try {
    return withResolved(where, abs, { followLast: false }, (r) => (r.name === "." ? fstatSync(r.dir.fd) : lstatAt(inDir(r.dir, r.name))));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Reads the file at `abs` through a descriptor opened without following a link (one inside the
 * workspace is followed by the walk). `bytes` is left out for a file over `maxBytes`, and for
 * anything that is not a regular file (a FIFO is never waited on). `head`: only the first bytes.
 */
export function readConfined(where: Confined, abs: string, opts: { maxBytes?: number; head?: number } = {}): Found & { bytes?: Uint8Array } {
  try {
    return withResolved(where, abs, { followLast: true }, (r) => {
      if (r.name === ".") return describe(r.real, fstatSync(r.dir.fd));
      const fd = openSync(inDir(r.dir, r.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        const stats = fstatSync(fd);
        const found = describe(r.real, stats);
        if (found.kind !== "file" || (opts.maxBytes !== undefined && stats.size > opts.maxBytes)) return found;
        return { ...found, bytes: opts.head !== undefined ? readHead(fd, opts.head) : readAll(fd, stats.size) };
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    if (isMissing(error)) return { kind: "missing" };
    throw error;
  }
}

function readHead(fd: number, bytes: number): Uint8Array {
  const buffer = Buffer.allocUnsafe(bytes);
  let total = 0;
  for (let n = -1; n !== 0 && total < bytes; total += n) n = readSync(fd, buffer, total, bytes - total, null);
  return buffer.subarray(0, total);
}

function readAll(fd: number, size: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(size - total, 0) + 65536);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/**
 * The first `upTo` lines of the text file at `abs` (without their "\n"), read through the
 * workspace root like readConfined but stopping as soon as it has them: grep confirms a match
 * near the top of a large file without reading all of it. Undefined for anything but a regular file.
 */
export function readLinesConfined(where: Confined, abs: string, upTo: number): string[] | undefined {
  try {
    return withResolved(where, abs, { followLast: true }, (r) => {
      if (r.name === ".") return undefined;
      const fd = openSync(inDir(r.dir, r.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        if (!fstatSync(fd).isFile()) return undefined;
        const decoder = new TextDecoder();
        const chunk = Buffer.allocUnsafe(256 * 1024);
        const lines: string[] = [];
        let partial = "";
        for (;;) {
          const n = readSync(fd, chunk, 0, chunk.length, null);
          const parts = (partial + (n === 0 ? decoder.decode() : decoder.decode(chunk.subarray(0, n), { stream: true }))).split("\n");
          partial = parts.pop()!;
          lines.push(...parts);
          if (lines.length >= upTo) return lines.slice(0, upTo);
          if (n === 0) return partial === "" ? lines : [...lines, partial];
        }
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Writes `content` at `abs` so readers see the old file or the new one: a temp file created beside
 * it (never through a link), then renamed over it. Missing folders are made; a link inside the
 * workspace is written through to its target, as before. The file keeps its permission bits,
 * or gets `mode`. Returns whether it existed, and the first folder made.
 */
export function writeConfined(where: Confined, abs: string, content: string | Uint8Array, opts: { mode?: number } = {}): { existed: boolean; made?: string } {
  let made: string | undefined;
  const existed = withResolved(where, abs, { followLast: true, create: true, made: (dir) => (made ??= dir) }, (r) => {
    if (r.name === ".") throw Object.assign(new Error(`${abs} is a directory`), { code: "EISDIR" });
    const before = r.last;
    if (before?.isSymbolicLink()) throw changed(abs);
    if (before?.isDirectory()) throw Object.assign(new Error(`${abs} is a directory`), { code: "EISDIR" });
    const temp = `.${r.name}.${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex")}.shiro-tmp`;
    const fd = openSync(inDir(r.dir, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      const bytes = typeof content === "string" ? Buffer.from(content) : content;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      const mode = opts.mode ?? (before ? before.mode & 0o7777 : undefined);
      if (mode !== undefined) fchmodSync(fd, mode);
      closeSync(fd);
      renameSync(inDir(r.dir, temp), inDir(r.dir, r.name));
    } catch (error) {
      try {
        closeSync(fd);
      } catch {}
      try {
        unlinkSync(inDir(r.dir, temp));
      } catch {}
      throw error;
    }
    return before !== undefined;
  });
  return { existed, ...(made ? { made } : {}) };
}

/** Makes the folder `abs` and any missing above it; returns the first one made, if any. */
export function mkdirsConfined(where: Confined, abs: string): string | undefined {
  let made: string | undefined;
  withResolved(where, abs, { followLast: true, create: true, made: (dir) => (made ??= dir) }, (r) => {
    if (r.name === ".") return;
    try {
      mkdirSync(inDir(r.dir, r.name));
      made ??= abs;
    } catch (error) {
      if (errno(error) !== "EEXIST") throw error;
    }
  });
  return made;
}

/** Removes the file (or link) at `abs`: the name itself, never what a link points to. */
export function unlinkConfined(where: Confined, abs: string, opts: { force?: boolean } = {}): void {
  try {
    withResolved(where, abs, { followLast: false }, (r) => unlinkSync(inDir(r.dir, r.name)));
  } catch (error) {
    if (opts.force && isMissing(error)) return;
    throw error;
  }
}

/** Removes the empty folder `abs`; false when it is not empty, not there, or not reachable inside the workspace. */
export function rmdirConfined(where: Confined, abs: string): boolean {
  try {
    withResolved(where, abs, { followLast: false }, (r) => rmdirSync(inDir(r.dir, r.name)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Renames `from` to `to` (names themselves, links not followed), making `to`'s missing folders.
 * Across file systems: copied through descriptors, then the original removed. Returns the first folder made.
 */
export function renameConfined(where: Confined, from: string, to: string): { made?: string } {
  const made = mkdirsConfined(where, dirname(to));
  withResolved(where, from, { followLast: false }, (a) =>
    withResolved(where, to, { followLast: false }, (b) => {
      try {
        renameSync(inDir(a.dir, a.name), inDir(b.dir, b.name));
      } catch (error) {
        if (errno(error) !== "EXDEV") throw error;
        const src = openSync(inDir(a.dir, a.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
        let bytes: Uint8Array;
        let mode: number;
        try {
          const stats = fstatSync(src);
          if (!stats.isFile()) throw new ToolError(`${from} is not a regular file.`);
          bytes = readAll(src, stats.size);
          mode = stats.mode & 0o7777;
        } finally {
          closeSync(src);
        }
        writeConfined(where, to, bytes, { mode });
        unlinkSync(inDir(a.dir, a.name));
      }
    }),
  );
  return made ? { made } : {};
}

export type ConfinedEntry = { name: string; kind: "dir" | "file" | "symlink" | "other"; link?: string };

/** The entries of the folder `abs` (a link inside the workspace followed), read through its descriptor. */
export function readdirConfined(where: Confined, abs: string): ConfinedEntry[] {
  return withResolved(where, abs, { followLast: true }, (r) => {
    const fd = r.name === "." ? undefined : openSync(inDir(r.dir, r.name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    try {
      const handle = fd === undefined ? r.dir : { ...r.dir, fd, path: r.real };
      return listHandle(handle.fd, handle.path);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  });
}

/** The entries of an open folder; links carry their text. */
export function listHandle(fd: number, path: string): ConfinedEntry[] {
  const dir = { fd, parts: [], path };
  const dirents: Dirent[] = readdirSync(inDir(dir, "."), { withFileTypes: true });
  return dirents.map((d) => {
    if (d.isSymbolicLink()) {
      let link: string | undefined;
      try {
        link = readlinkSync(inDir(dir, d.name));
      } catch {}
      return { name: d.name, kind: "symlink" as const, ...(link !== undefined ? { link } : {}) };
    }
    return { name: d.name, kind: d.isDirectory() ? ("dir" as const) : d.isFile() ? ("file" as const) : ("other" as const) };
  });
}

/**
 * Opens the folder `abs` for a walk: through the workspace root (a link inside followed, one
 * leading out refused) when `where` is given, by its path otherwise (the prompt's completion,
 * which only lists names). The caller closes the descriptor.
 */
export function openDirConfined(where: Confined | undefined, abs: string): number {
  if (!where) return openSync(abs, O_RDONLY | O_DIRECTORY);
  return withResolved(where, abs, { followLast: true }, (r) =>
    openSync(inDir(r.dir, r.name === "." ? "." : r.name), O_RDONLY | O_DIRECTORY | (r.name === "." ? 0 : O_NOFOLLOW)),
  );
}

/** Opens the folder `name` inside the open folder `fd` (at `path`), never through a link. */
export function openChildDir(fd: number, path: string, name: string): number {
  return openSync(inDir({ fd, parts: [], path }, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}
