import { realpathSync } from "node:fs";
import { posix } from "node:path";

/** More matches than this and a glob is judged as unknown: the guard will not list a whole tree. */
const MAX_GLOB_MATCHES = 10_000;

/**
 * Where a path really is: the real path of its longest existing prefix, with the rest appended.
 * `followLast` false leaves the last component alone (rm of a symlink removes the link, not what
 * it points at); a trailing `/` means the caller wants it followed (`rm -rf build/` where
 * `build -> ../..` empties the target). Reads the file system, changes nothing.
 */
export function physicalPath(abs: string, followLast: boolean): string {
  const clean = posix.resolve(abs);
  if (!followLast && clean !== "/") return posix.join(realPrefix(posix.dirname(clean)), posix.basename(clean));
  return realPrefix(clean);
}

function realPrefix(abs: string): string {
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return posix.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = posix.dirname(current);
      if (parent === current) return abs;
      missing.push(posix.basename(current));
      current = parent;
    }
  }
}

/**
 * What bash would expand a glob word to, as absolute paths, read from the file system now:
 * `*`, `?` and `[…]` per segment, dot files only when the segment starts with a dot, `**` as `*`
 * (globstar is off by default). `[]` when nothing matches (bash then passes the word as it is);
 * undefined when the matches are too many to judge. `pattern` is absolute.
 */
export function expandGlob(pattern: string): string[] | undefined {
  const segments = pattern.split("/");
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  if (first === -1) return [pattern];
  const base = segments.slice(0, first).join("/") || "/";
  const rest = segments.slice(first).map((segment) => segment.replaceAll("**", "*")).join("/").replace(/\/+$/, "");
  const found: string[] = [];
  try {
    for (const match of new Bun.Glob(rest).scanSync({ cwd: base, dot: false, onlyFiles: false, followSymlinks: true })) {
      found.push(posix.join(base, match));
      if (found.length > MAX_GLOB_MATCHES) return undefined;
    }
  } catch {
    return [];
  }
  return found.sort();
}
