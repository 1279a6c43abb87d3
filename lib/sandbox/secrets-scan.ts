import { readdirSync, realpathSync, type Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isSensitivePath } from "../fs/sensitive-path.ts";

/** Folders not searched for secrets files: version-control data and dependency trees. */
const SKIPPED = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache"]);
/** A workspace bigger than this is not searched further; what was found is masked. */
const MAX_ENTRIES = 200_000;
const MAX_DEPTH = 24;

/**
 * The secrets files (lib/fs/sensitive-path.ts) in the workspace, as sorted real paths, for the
 * sandbox to mask. Every folder is searched, .gitignored ones included (that is where `.env`
 * usually is), except SKIPPED; symlinks are not followed. Bounded by MAX_ENTRIES and MAX_DEPTH.
 */
export function findSecretsFiles(root: string): string[] {
  return scanWorkspace(root).secrets;
}

/**
 * findSecretsFiles, and the git places found on the way (gitPlacesIn): every `.git` entry below
 * the root and every folder git would take as a repository of its own (a `HEAD` file beside
 * `objects` and `refs` folders), as sorted real paths. One synchronous walk, for the end of a
 * session (git-check.ts) and `shiro doctor`.
 */
export function scanWorkspace(root: string): { secrets: string[]; git: string[] } {
  const scan = newScan();
  const queue: [string, number][] = [[realOrSelf(root), 0]];
  for (let next = queue.pop(); next; next = queue.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(next[0], { withFileTypes: true });
    } catch {
      continue;
    }
    queue.push(...take(scan, next[0], next[1], entries));
  }
  return { secrets: [...scan.found].sort(), git: [...scan.git].sort() };
}

/** The secrets files and git places found, and each folder's change time then (a new, renamed or removed entry changes it, and so does a chmod). */
type Found = { files: string[]; git: string[]; folders: Map<string, number>; at: number };

/** A folder changed this shortly before a search may change again within the file system's clock tick unseen: it is read again next time. */
const RACY_MS = 1_000;

/**
 * The workspace's secrets files, kept up to date cheaply for the sandbox, which must know them
 * before every command. A full search reads every folder; after it, `now()` only looks at each
 * folder's change time (creating, renaming or deleting a file changes its folder's, and so does
 * making a folder readable), and searches again only when one changed, or changed too recently
 * to be sure. The reads happen in
 * the thread pool. `prefetch()` does the same work early (after a command ends, while the model
 * reads its output), so the check before the next command usually finds it done. Folders in
 * `skip` (real paths: $SHIRO_HOME, which the sandbox hides whole) are not searched.
 */
export type SecretsWatch = {
  now(): Promise<string[]>;
  prefetch(): void;
  /** The secrets files and the git places (scanWorkspace) as of now, from one search. */
  scan(): Promise<{ secrets: string[]; git: string[] }>;
};

export function createSecretsWatch(root: string, skip: readonly string[] = []): SecretsWatch {
  const skipped = new Set(skip);
  let last: Promise<Found | undefined> = Promise.resolve(undefined);
  const refresh = (): Promise<Found> => {
    const next = last.then(async (found) => (found && (await unchanged(found)) ? found : search(root, skipped))).catch(() => search(root, skipped));
    last = next;
    return next;
  };
  return {
    now: async () => (await refresh()).files,
    prefetch: () => void refresh(),
    scan: async () => {
      const found = await refresh();
      return { secrets: found.files, git: found.git };
    },
  };
}

async function search(root: string, skipped: ReadonlySet<string>): Promise<Found> {
  const at = Date.now();
  const scan = newScan();
  const folders = new Map<string, number>();
  const queue: [string, number][] = [[realOrSelf(root), 0]];
  for (let next = queue.pop(); next; next = queue.pop()) {
    const [dir, depth] = next;
    if (skipped.has(dir)) continue;
    // The folder's change time, even when it cannot be read: making it readable changes it too.
    const [info, listed] = await Promise.allSettled([stat(dir), readdir(dir, { withFileTypes: true })]);
    if (info.status === "fulfilled") folders.set(dir, info.value.ctimeMs);
    if (listed.status === "fulfilled") queue.push(...take(scan, dir, depth, listed.value));
  }
  return { files: [...scan.found].sort(), git: [...scan.git].sort(), folders, at };
}

/** True when no folder of the last search has changed since (nor so shortly before it that a change could hide in the same clock tick). */
async function unchanged(found: Found): Promise<boolean> {
  const folders = [...found.folders];
  for (let i = 0; i < folders.length; i += 64) {
    const batch = folders.slice(i, i + 64);
    const times = await Promise.all(batch.map(([dir]) => stat(dir).then((info) => info.ctimeMs, () => -1)));
    for (let j = 0; j < batch.length; j++) {
      const before = batch[j]![1];
      if (times[j] !== before || before >= found.at - RACY_MS) return false;
    }
  }
  return true;
}

type Scan = { found: Set<string>; git: Set<string>; seen: number };
const newScan = (): Scan => ({ found: new Set(), git: new Set(), seen: 0 });

/**
 * One folder's entries: the secrets files and git places among them are noted; the folders to
 * search next are returned.
 */
function take(scan: Scan, dir: string, depth: number, entries: Dirent[]): [string, number][] {
  const folders: [string, number][] = [];
  if (depth > MAX_DEPTH || scan.seen > MAX_ENTRIES) return folders;
  if (looksLikeGitDir(entries)) scan.git.add(dir);
  for (const entry of entries) {
    if (++scan.seen > MAX_ENTRIES) break;
    const path = join(dir, entry.name);
    if (entry.name === ".git") scan.git.add(path); // a folder, a file or a symlink: not followed
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && depth + 1 <= MAX_DEPTH) folders.push([path, depth + 1]);
    } else if (entry.isFile() && isSensitivePath(entry.name)) {
      scan.found.add(realOrSelf(path));
    }
  }
  return folders;
}

/** What git checks to take a folder as a repository (bare, or a `.git` folder): a `HEAD` file beside `objects` and `refs`. */
function looksLikeGitDir(entries: Dirent[]): boolean {
  let head = false;
  let objects = false;
  let refs = false;
  for (const entry of entries) {
    if (entry.name === "HEAD" && !entry.isDirectory()) head = true;
    else if (entry.name === "objects" && entry.isDirectory()) objects = true;
    else if (entry.name === "refs" && entry.isDirectory()) refs = true;
  }
  return head && objects && refs;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
