import { readdirSync, statSync } from "node:fs";
import { posix } from "node:path";
import type { ShellWord } from "./shell-parse.ts";
import { expandGlob, physicalPath } from "./fs-paths.ts";
import { expandBraces, resolvePathWord, type Where } from "./path-word.ts";

/** rm's long options that make it recursive or forced; any unique prefix (`--r`, `--forc`) counts, as GNU getopt accepts it. */
const DESTRUCTIVE_LONG = ["--recursive", "--force"];

/**
 * Why `rm …` would destroy work, or undefined when it may go on to approval. Only recursive or
 * forced removals are judged (`-r`, `-R`, `-f`, `--recursive`, `--force` or a prefix of them, in
 * any cluster or position, since GNU rm accepts options after operands); a plain `rm file` is left
 * to the permission rules. Refused targets: anything outside the workspace, the workspace root
 * itself or everything in it, its `.git`, the home directory, and paths only known at run time
 * (variables, unknown cwd, `xargs`). Each target is judged as written and again where it really
 * is: through symlinked directories (`build/` where `build -> ../..`) and, for a glob, on what it
 * matches on disk now (`.g*` is `.git`; `[a-z]*` at the root is everything in it).
 */
export function rmRefusal(args: readonly ShellWord[], where: Where, opts: { moreArgs?: boolean } = {}): string | undefined {
  let recursiveOrForce = false;
  const targets: ShellWord[] = [];
  let optionsEnded = false;
  for (const arg of args) {
    if (!optionsEnded && arg.text === "--") {
      optionsEnded = true;
    } else if (!optionsEnded && arg.text.startsWith("--")) {
      const name = arg.text.split("=")[0]!;
      if (name.length > 2 && DESTRUCTIVE_LONG.some((option) => option.startsWith(name))) recursiveOrForce = true;
    } else if (!optionsEnded && arg.text.startsWith("-") && arg.text.length > 1) {
      if (/[rRf]/.test(arg.text.slice(1))) recursiveOrForce = true;
    } else {
      targets.push(arg);
    }
  }
  if (!recursiveOrForce) return undefined;
  if (opts.moreArgs) return "it deletes paths that are only known when it runs (its arguments come from its input)";
  for (const target of targets) {
    for (const text of expandBraces(target.text)) {
      const why = targetRefusal(text, target, where);
      if (why) return why;
    }
  }
  return undefined;
}

function targetRefusal(text: string, word: ShellWord, where: Where): string | undefined {
  const target = resolvePathWord(text, word, where);
  switch (target.kind) {
    case "home":
      return `it deletes ${text}, the home directory, which is outside the workspace`;
    case "unknown":
      return `it deletes a path that cannot be checked before it runs (${target.why})`;
    case "path": {
      const lexical = placeRefusal(text, target.abs, target.within, word.glob, where.root);
      if (lexical) return lexical;
      return word.glob ? globRefusal(text, where) : physicalRefusal(text, target.abs, where.root);
    }
    default:
      return target satisfies never;
  }
}

/** The judgement of one absolute path: outside the workspace, its root, or its `.git`. */
function placeRefusal(text: string, abs: string, within: boolean, glob: boolean | undefined, root: string): string | undefined {
  const rel = posix.relative(root, abs);
  const outside = rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel);
  if (outside) return `it deletes ${text === abs ? text : `${text} (${abs})`}, which is outside the workspace ${root}`;
  if (within) return undefined;
  if (rel === "") return glob ? `it deletes everything in the workspace root ${root}` : `it deletes the workspace root ${root} itself`;
  if (rel === ".git" || rel.startsWith(".git/")) return `it deletes the repository's history (${posix.join(root, ".git")})`;
  return undefined;
}

/** A literal path, judged where it really is; a trailing `/` or `/.` follows a final symlink. */
function physicalRefusal(text: string, abs: string, root: string): string | undefined {
  const followLast = /\/\.?$/.test(text) || text === "." || text === "..";
  const real = physicalPath(abs, followLast);
  const realRoot = physicalPath(root, true);
  if (real === posix.resolve(abs) && realRoot === root) return undefined;
  const rel = posix.relative(realRoot, real);
  const outside = rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel);
  if (outside) return `it deletes ${text}, which leads through a symlink to ${real}, outside the workspace ${root}`;
  if (rel === "") return `it deletes the workspace root ${root} itself (${text} leads there through a symlink)`;
  if (rel === ".git" || rel.startsWith(".git/")) return `it deletes the repository's history (${text} leads to ${real})`;
  return undefined;
}

/** A glob, judged on what it matches now: each match as a literal path, and all of them together. */
function globRefusal(text: string, where: Where): string | undefined {
  const pattern = posix.isAbsolute(text) ? text : where.cwd === undefined ? undefined : posix.join(where.cwd, text);
  if (pattern === undefined) return `it deletes a path that cannot be checked before it runs (the directory ${text} is relative to is unknown)`;
  // The folder the glob ranges over, where it really is: `link/*` with `link -> /elsewhere`.
  const segments = pattern.split("/");
  const fixed = segments.slice(0, segments.findIndex((segment) => /[*?[]/.test(segment))).join("/") || "/";
  const base = physicalPath(fixed, true);
  const relBase = posix.relative(physicalPath(where.root, true), base);
  if (relBase === ".." || relBase.startsWith("../") || posix.isAbsolute(relBase)) {
    return `it deletes ${text}, in ${base}, which is outside the workspace ${where.root}`;
  }
  const matches = expandGlob(pattern);
  if (matches === undefined) return `it deletes ${text}, which matches too many paths to check`;
  for (const match of matches) {
    const why = placeRefusal(text, match, false, false, where.root) ?? physicalRefusal(match, match, where.root);
    if (why) return why.replace(`it deletes ${match}`, `it deletes ${text} (${match})`);
  }
  // Everything visible in the root, directories included: the workspace emptied by a pattern.
  const dirs = new Set(matches.map((match) => posix.dirname(match)));
  if (dirs.size === 1 && physicalPath([...dirs][0]!, true) === physicalPath(where.root, true)) {
    const visible = visibleEntries(where.root);
    const matched = new Set(matches.map((match) => posix.basename(match)));
    if (visible.length > 0 && visible.every((name) => matched.has(name)) && matches.some(isDirectory)) {
      return `it deletes everything in the workspace root ${where.root} (${text} matches all of it)`;
    }
  }
  return undefined;
}

function visibleEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith("."));
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
