import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import type { IgnoreFilter } from "./ignore-filter.ts";

export type WalkEntry = {
  abs: string;
  /** Relative to the walk's start, "/"-separated. */
  rel: string;
  name: string;
  /** 1 for the start directory's own children. */
  depth: number;
  kind: "dir" | "file" | "symlink" | "other";
};

/**
 * Depth-first walk below `start`. Each directory's entries come in code-unit order of their names
 * and a directory's contents follow it directly: the order of ripgrep's `--sort path`, so both grep
 * back ends list matches identically. Ignored entries are neither yielded nor entered; symlinks
 * are yielded but never followed; unreadable directories are skipped. The start directory itself
 * is not tested against the filter: naming a folder explicitly is how one looks inside an ignored one.
 */
export function* walk(start: string, filter: IgnoreFilter, maxDepth = Number.POSITIVE_INFINITY): Generator<WalkEntry> {
  yield* walkDir(start, "", 1, filter, maxDepth);
}

function* walkDir(dir: string, relDir: string, depth: number, filter: IgnoreFilter, maxDepth: number): Generator<WalkEntry> {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    const abs = join(dir, dirent.name);
    const kind = kindOf(dirent);
    if (filter.isIgnored(abs, kind === "dir")) continue;
    const rel = relDir ? `${relDir}/${dirent.name}` : dirent.name;
    yield { abs, rel, name: dirent.name, depth, kind };
    if (kind === "dir" && depth < maxDepth) yield* walkDir(abs, rel, depth + 1, filter, maxDepth);
  }
}

function kindOf(dirent: Dirent): WalkEntry["kind"] {
  if (dirent.isSymbolicLink()) return "symlink";
  if (dirent.isDirectory()) return "dir";
  if (dirent.isFile()) return "file";
  return "other";
}
