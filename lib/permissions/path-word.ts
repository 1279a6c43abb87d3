import { posix } from "node:path";

/** Where a command runs. `cwd` is undefined once a `cd` went somewhere shiro cannot tell. */
export type Where = { root: string; cwd: string | undefined; home: string | undefined };

/**
 * What a path argument names. `within` is true when the word names things strictly below `abs`
 * (`build/*.js`) rather than `abs` itself or everything in it (`build`, `build/`, `build/*`).
 */
export type PathTarget =
  | { kind: "path"; abs: string; within: boolean }
  | { kind: "home" }
  | { kind: "unknown"; why: string };

const GLOB_SEGMENT = /[*?[]/;

/**
 * Resolves a path word lexically (no file system access, symlinks are not followed): `~` and
 * `$HOME` become the home directory, relative paths are taken from `where.cwd`, and a glob is
 * reduced to the directory it ranges over. Any other expansion makes the target unknown.
 */
export function resolvePathWord(text: string, flags: { expands: boolean; glob: boolean }, where: Where): PathTarget {
  let path = text;
  const home = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(path);
  if (home) {
    if (!where.home) return { kind: "home" };
    path = where.home + path.slice(home[0].length);
  } else if (path.startsWith("~")) {
    return { kind: "unknown", why: `${text} is another user's home directory` };
  }
  if (flags.expands && /[$`]/.test(path)) return { kind: "unknown", why: `${text} is only known when the command runs` };
  if (!posix.isAbsolute(path)) {
    if (where.cwd === undefined) return { kind: "unknown", why: `the directory ${text} is relative to is only known when the command runs` };
    path = posix.join(where.cwd, path);
  }
  if (!flags.glob) return { kind: "path", abs: posix.resolve(path), within: false };

  const segments = path.split("/");
  const first = segments.findIndex((segment) => GLOB_SEGMENT.test(segment));
  if (first === -1) return { kind: "path", abs: posix.resolve(path), within: false };
  const after = segments.slice(first + 1).filter((segment) => segment !== "");
  if (after.includes("..")) return { kind: "unknown", why: `${text} climbs out of a wildcard with ..` };
  const base = posix.resolve(segments.slice(0, first).join("/") || "/");
  // `dir/*`, `dir/.*`, `dir/*/`: everything in dir, which is as good as dir itself.
  const everything = after.length === 0 && /^[*?.]+$/.test(segments[first]!);
  return { kind: "path", abs: base, within: !everything };
}

/** Expands `{a,b}` brace lists (nested ones too) the way bash would before running the command. */
export function expandBraces(text: string): string[] {
  const open = findBraceList(text);
  if (!open) return [text];
  const { start, end, parts } = open;
  return parts.flatMap((part) => expandBraces(text.slice(0, start) + part + text.slice(end + 1)));
}

function findBraceList(text: string): { start: number; end: number; parts: string[] } | undefined {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    if (text[start - 1] === "$") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === "{") depth++;
      else if (c === "," && depth === 1) commas.push(i);
      else if (c === "}" && --depth === 0) {
        if (commas.length === 0) break;
        const bounds = [start, ...commas, i];
        const parts = bounds.slice(0, -1).map((b, k) => text.slice(b + 1, bounds[k + 1]));
        return { start, end: i, parts };
      }
    }
  }
  return undefined;
}
