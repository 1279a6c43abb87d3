import { closeSync } from "node:fs";
import { join } from "node:path";
import { OutsideError } from "./confined.ts";
import { listHandle, openChildDir, openDirConfined, type ConfinedEntry } from "./confined-ops.ts";
import type { IgnoreFilter } from "./ignore-filter.ts";

export type WalkEntry = {
  abs: string;
  /** Relative to the walk's start, "/"-separated. */
  rel: string;
  name: string;
  /** 1 for the start directory's own children. */
  depth: number;
  kind: "dir" | "file" | "symlink" | "other";
  /** A symlink's text, as read when the folder was listed. */
  link?: string;
};

/**
 * Depth-first walk below `start`. Each directory's entries come in code-unit order of their names
 * and a directory's contents follow it directly: the order of ripgrep's `--sort path`, so both grep
 * back ends list matches identically. Ignored entries are neither yielded nor entered; symlinks
 * are yielded but never followed; unreadable directories are skipped. The start directory itself
 * is not tested against the filter: naming a folder explicitly is how one looks inside an ignored one.
 *
 * Each folder is listed through a descriptor opened from its parent's without following a link,
 * so a folder swapped for a symlink during the walk is skipped rather than entered. With `root`,
 * the start itself is reached the same way from the workspace root (lib/fs/confined.ts); without,
 * it is opened by its path.
 */
export function* walk(start: string, filter: IgnoreFilter, maxDepth = Number.POSITIVE_INFINITY, root?: string): Generator<WalkEntry> {
  let fd: number;
  try {
    fd = openDirConfined(root !== undefined ? { root } : undefined, start);
  } catch (error) {
    if (error instanceof OutsideError) throw error; // the start leads out: say so, not "empty"
    return;
  }
  yield* walkDir(fd, start, "", 1, filter, maxDepth);
}

/** Lists the open folder `fd` (at `dir`), and closes it. */
function* walkDir(fd: number, dir: string, relDir: string, depth: number, filter: IgnoreFilter, maxDepth: number): Generator<WalkEntry> {
  let entries: ConfinedEntry[];
  try {
    entries = listHandle(fd, dir);
  } catch {
    closeSync(fd);
    return;
  }
  try {
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      if (filter.isIgnored(abs, entry.kind === "dir")) continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      yield { abs, rel, name: entry.name, depth, kind: entry.kind, ...(entry.link !== undefined ? { link: entry.link } : {}) };
      if (entry.kind !== "dir" || depth >= maxDepth) continue;
      let child: number;
      try {
        child = openChildDir(fd, dir, entry.name);
      } catch {
        continue; // gone, unreadable, or swapped for a link since it was listed
      }
      yield* walkDir(child, abs, rel, depth + 1, filter, maxDepth);
    }
  } finally {
    closeSync(fd);
  }
}
