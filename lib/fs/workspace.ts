import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "../errors.ts";

/** Where paths resolve: the workspace root, and the directory relative paths start from. */
export type Where = { root: string; cwd: string };

/**
 * The absolute path a tool argument names: resolved against ctx.cwd and required to stay inside
 * ctx.root. Refuses `..` escapes, absolute paths elsewhere, and paths whose existing part runs
 * through a symlink that leads outside (the part that does not exist yet cannot). Broken symlinks
 * are refused too, since writing through one would create a file wherever it points. Returns the
 * lexical path (symlinks inside the workspace are kept as named). `tool` prefixes the messages.
 */
export function resolveInWorkspace(ctx: Where, path: string, tool?: string): string {
  const prefix = tool ? `${tool}: ` : "";
  const abs = resolve(ctx.cwd, path);
  if (!isInside(ctx.root, abs)) {
    throw new ToolError(`${prefix}path ${path} is outside the workspace; shiro only works on files under ${ctx.root}.`);
  }
  const realRoot = realpathOrSelf(ctx.root);
  const real = realpathOfExistingPart(abs, () => {
    throw new ToolError(`${prefix}path ${path} runs through a broken symlink; shiro does not follow links whose target is missing.`);
  });
  if (!isInside(realRoot, real)) {
    throw new ToolError(
      `${prefix}path ${path} leads through a symlink to ${real}, which is outside the workspace; shiro only works on files under ${ctx.root}.`,
    );
  }
  return abs;
}

/** How a path is shown to the model and on screen: relative to ctx.cwd, "." for cwd itself. */
export function displayPath(ctx: Pick<Where, "cwd">, abs: string): string {
  return relative(ctx.cwd, abs) || ".";
}

/** True when `abs` is `dir` or below it. Both must be absolute; compares lexically. */
export function isInside(dir: string, abs: string): boolean {
  const rel = relative(dir, abs);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** realpath when the path exists, the path itself otherwise. */
export function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** realpath of the longest existing prefix of `abs`, with the missing rest appended. */
function realpathOfExistingPart(abs: string, onBrokenLink: () => never): string {
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      if (code === "ENOENT" && isSymlink(current)) onBrokenLink();
      const parent = dirname(current);
      if (parent === current) return abs;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
