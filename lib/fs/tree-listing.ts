import { createIgnoreFilter } from "./ignore-filter.ts";
import { walk, type WalkEntry } from "./walk.ts";

/**
 * A directory as an indented tree, the way list_dir shows it and `@dir` attaches it: the first
 * line is `shown/`, then one line per entry (directories end with "/", symlinks show
 * "-> target"), indented two spaces a level. Skips .git, node_modules and what .gitignore (from
 * `root`) excludes. Confined to `root` (lib/fs/walk.ts). Stops after `maxEntries`; `capped` says it did.
 */
export function treeListing(dir: string, root: string, shown: string, depth: number, maxEntries: number): { lines: string[]; count: number; capped: boolean } {
  const lines = [`${shown}/`];
  let count = 0;
  let capped = false;
  for (const entry of walk(dir, createIgnoreFilter(root), depth, root)) {
    if (count === maxEntries) {
      capped = true;
      break;
    }
    lines.push(`${"  ".repeat(entry.depth)}${label(entry)}`);
    count++;
  }
  if (count === 0) lines.push("  (empty, or everything in it is ignored)");
  return { lines, count, capped };
}

function label(entry: WalkEntry): string {
  if (entry.kind === "dir") return `${entry.name}/`;
  if (entry.kind !== "symlink") return entry.name;
  return entry.link !== undefined ? `${entry.name} -> ${entry.link}` : entry.name;
}
