import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { ToolError } from "../errors.ts";

// How the file tools and undo reach a file without leaving the workspace, whatever happens to
// the folders on the way while they do: every folder is opened from the one before it, by
// descriptor, without following a symlink; a symlink met on the way is read and followed by this
// code only when its target is inside the workspace, walking again from the root's descriptor.
// The last step (open, create, rename, unlink) names the file relative to its folder's
// descriptor, again without following a link. On Linux "relative to a descriptor" is the path
// /proc/self/fd/<fd>/<name> (node:fs has no openat); elsewhere (macOS) it is the folder's path
// as walked, and each folder opened is checked to be the one that was walked (device and inode),
// which narrows the race to the last step rather than closing it (docs/permissions.md).
// confined-ops.ts builds the file operations on this; nothing else in the file tools and undo
// opens a file by path (spec/fs/confined-only.test.ts).

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;

/** Linux: folders are named through the descriptor itself; elsewhere through the walked path. */
let PROC_FD = existsSync("/proc/self/fd");

/**
 * For specs: walk the way systems without /proc do (false), or back to this system's way
 * (undefined), so the fallback's behaviour is checked on Linux too.
 */
export function useProcFd(on?: boolean): void {
  PROC_FD = on ?? existsSync("/proc/self/fd");
}

/** Links followed in one walk before giving up, as the kernel's own limit (ELOOP). */
const MAX_LINKS = 40;

/** Where a confined operation works: the workspace root, and the tool named in its messages. */
export type Confined = { root: string; tool?: string };

/** An open folder inside the workspace: its descriptor, its names below the root, and its real absolute path (no links in either). */
export type DirHandle = { fd: number; parts: string[]; path: string };

/** The path that reaches `name` inside `dir` without following anything before it. */
export function inDir(dir: DirHandle, name: string): string {
  return PROC_FD ? `/proc/self/fd/${dir.fd}/${name}` : join(dir.path, name);
}

/**
 * What a walk found: the folder the last name is in (open: call close()), the name, the real
 * path, and what the name was when looked at last (lstat; undefined: nothing there, or not looked at).
 */
export type Resolved = { dir: DirHandle; name: string; real: string; last?: Stats; close(): void };

/** The error for a name that changed between two looks at it (someone is swapping it): walk again. */
export function changed(abs: string): Error {
  return Object.assign(new Error(`${abs} changed while shiro was opening it`), { code: "ECHANGED" });
}

/** A path that leaves the workspace (a `..` too many, or a symlink leading out), refused. */
export class OutsideError extends ToolError {}

function prefix(at: Confined): string {
  return at.tool ? `${at.tool}: ` : "";
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** The real path of the opened root: the base absolute symlink targets are measured against. */
function realRoot(root: string, fd: number): string {
  try {
    return PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(root);
  } catch {
    return root;
  }
}

function openDir(path: string): number {
  return openSync(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

/** lstat that answers undefined for nothing there. */
export function lstatAt(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errno(error) === "ENOENT" || errno(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Walks `abs` (absolute, lexically inside `at.root`) from the root's descriptor. Every folder on the
 * way is opened without following a link; a link on the way (and the last name's too, with
 * `followLast`) is followed only to a target inside the workspace. `create` makes missing
 * folders on the way (`made` gets the first one made). Missing folders otherwise: ENOENT.
 * Throws OutsideError for anything leading out, a ToolError past MAX_LINKS links, and an
 * ECHANGED error (see changed()) when a name changed between two looks: the caller walks again.
 */
export function resolveConfined(
  at: Confined,
  abs: string,
  opts: { followLast: boolean; create?: boolean; made?: (abs: string) => void },
): Resolved {
  const rel = relative(at.root, abs);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new OutsideError(`${prefix(at)}${abs} is outside the workspace; shiro only works on files under ${at.root}.`);
  }
  const rootFd = openSync(at.root, O_RDONLY | O_DIRECTORY);
  const stack: DirHandle[] = [{ fd: rootFd, parts: [], path: realRoot(at.root, rootFd) }];
  const closeAll = () => {
    for (const dir of stack) closeSync(dir.fd);
    stack.length = 0;
  };
  const top = () => stack[stack.length - 1]!;
  const queue = rel === "" ? ["."] : rel.split(sep);
  let links = 0;
  const at_ = (name: string) => inDir(top(), name);
  const followLink = (name: string) => {
    if (++links > MAX_LINKS) throw new ToolError(`${prefix(at)}${abs} runs through more than ${MAX_LINKS} symlinks (a loop?); shiro does not follow it.`);
    let target: string;
    try {
      target = readlinkSync(at_(name));
    } catch (error) {
      // Not a link any more (EINVAL) or gone: it changed between two looks; the caller walks again.
      if (errno(error) === "EINVAL" || errno(error) === "ENOENT") throw changed(abs);
      throw error;
    }
    if (isAbsolute(target)) {
      const inside = relative(stack[0]!.path, target);
      const lexical = relative(at.root, target);
      const fromRoot = !inside.startsWith("..") && !isAbsolute(inside) ? inside : !lexical.startsWith("..") && !isAbsolute(lexical) ? lexical : undefined;
      if (fromRoot === undefined) {
        throw new OutsideError(`${prefix(at)}${abs} leads through a symlink to ${target}, which is outside the workspace; shiro only works on files under ${at.root}.`);
      }
      while (stack.length > 1) closeSync(stack.pop()!.fd);
      queue.unshift(...fromRoot.split(sep).filter(Boolean));
    } else {
      queue.unshift(...target.split("/").filter(Boolean));
    }
  };
  try {
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (name === "." || name === "") {
        if (queue.length === 0) return finish(stack, ".");
        continue;
      }
      if (name === "..") {
        if (stack.length === 1) throw new OutsideError(`${prefix(at)}${abs} leads above the workspace root; shiro only works on files under ${at.root}.`);
        closeSync(stack.pop()!.fd);
        if (queue.length === 0) return finish(stack, ".");
        continue;
      }
      const last = queue.length === 0;
      if (last) {
        const stats = lstatAt(at_(name));
        if (opts.followLast && stats?.isSymbolicLink()) {
          followLink(name);
          if (queue.length === 0) return finish(stack, ".");
          continue;
        }
        return finish(stack, name, stats);
      }
      let fd: number;
      try {
        fd = openDir(at_(name));
      } catch (error) {
        const code = errno(error);
        if (code === "ENOENT" && opts.create) {
          try {
            mkdirSync(at_(name));
            opts.made?.(join(at.root, ...top().parts, name));
          } catch (made) {
            if (errno(made) !== "EEXIST") throw made;
          }
          queue.unshift(name); // open it now (or follow what replaced it)
          continue;
        }
        if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
        const now = lstatAt(at_(name));
        if (now?.isDirectory()) throw changed(abs); // a link a moment ago, a folder again now
        if (!now?.isSymbolicLink()) throw error;
        followLink(name);
        continue;
      }
      const dir = { fd, parts: [...top().parts, name], path: join(top().path, name) };
      stack.push(dir);
      if (!PROC_FD) checkSame(fd, dir.path, at, abs);
    }
    return finish(stack, ".");
  } catch (error) {
    closeAll();
    throw error;
  }
}

/** Keeps the last folder open (the caller closes it) and closes the rest. */
function finish(stack: DirHandle[], name: string, last?: Stats): Resolved {
  const dir = stack.pop()!;
  for (const other of stack) closeSync(other.fd);
  stack.length = 0;
  let closed = false;
  return {
    dir,
    name,
    real: name === "." ? dir.path : join(dir.path, name),
    ...(last ? { last } : {}),
    close() {
      if (!closed) closeSync(dir.fd);
      closed = true;
    },
  };
}

/** Without /proc: the folder just opened must be the one at its walked path (no link swapped in since). */
function checkSame(fd: number, path: string, at: Confined, abs: string): void {
  const opened = fstatSync(fd);
  const named = lstatAt(path);
  if (!named || named.isSymbolicLink() || named.dev !== opened.dev || named.ino !== opened.ino) {
    throw new OutsideError(`${prefix(at)}${abs} changed while shiro was opening it (a folder on the way was replaced); try again.`);
  }
}
