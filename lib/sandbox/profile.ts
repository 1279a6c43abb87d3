import { isAbsolute, join } from "node:path";
import { isInside } from "../fs/workspace.ts";
import type { GitShield } from "./git-shield.ts";
import { CREDENTIAL_PLACES } from "./credential-places.ts";

export { CREDENTIAL_PLACES } from "./credential-places.ts";

/**
 * Package-manager caches under the home directory: writable in the sandbox so installs work.
 * Only the caches themselves, never a `bin` directory, so a command cannot replace a program the
 * user runs later. `.cache` and `.npm` are created when missing; the rest only when present.
 */
export const CACHE_PLACES = [
  ".cache", ".npm", ".bun/install/cache", ".yarn/berry/cache", ".pnpm-store", ".local/share/pnpm/store",
  ".cargo/registry", ".cargo/git", "go/pkg/mod", ".m2/repository", ".gradle/caches", ".nuget/packages", ".deno",
] as const;

/**
 * Sockets and runtime directories outside the home that hand out more than the sandbox allows: the
 * container engines' sockets (root on the machine, for a member of the docker group) and the user's
 * runtime directory (the session bus, which can start programs outside the sandbox, and agent
 * sockets). A socket on a read-only mount can still be connected to, so they are hidden.
 */
export function systemPlaces(uid: number | undefined): string[] {
  return [
    ...(uid === undefined ? [] : [`/run/user/${uid}`]),
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/containerd",
    "/run/podman",
    "/run/crio",
    "/run/dbus/system_bus_socket",
  ];
}

/** The caches made when missing, so the first `npm install` or `pip install` works. */
export const CREATED_CACHES = [".cache", ".npm"] as const;

export type PathKind = "dir" | "file" | undefined;

export type ProfileInput = {
  /** The workspace root (real path): read-write. */
  root: string;
  /** The user's home directory (real path), if known: credentials are hidden and caches opened below it. */
  home: string | undefined;
  /** `$SHIRO_HOME` (real path): hidden. */
  shiroHome: string;
  /** The host directory that becomes the sandbox's /tmp, one per session. */
  tmp: string;
  network: boolean;
  /** Config `sandboxWritable`, absolute and real. */
  writable: readonly string[];
  /** Config `sandboxReadable`, absolute and real: shown read-only even where hidden. */
  readable: readonly string[];
  /** Config `sandboxHide`, absolute: hidden like the credentials. */
  hide?: readonly string[];
  /** Secrets files inside the workspace (real paths): masked. */
  secrets: readonly string[];
  /** What keeps git's configuration in the workspace read-only (git-shield.ts); none without a repository. */
  git?: GitShield;
  /** Other places to hide (systemPlaces, real paths). */
  system?: readonly string[];
  /** What is at a path on this machine; real paths in, no symlink following needed. */
  kindOf: (path: string) => PathKind;
};

/** What the sandbox shows, for `shiro doctor` and the docs: each list holds real paths. */
export type ProfileSummary = { writable: string[]; hidden: string[]; readable: string[]; masked: string[]; readOnly: string[] };

/**
 * The bubblewrap arguments (everything before `--`) of the sandbox, and what they do:
 *
 * - new user, PID, IPC, UTS and cgroup namespaces; a new network namespace only without network;
 *   every capability dropped; the sandbox dies with shiro;
 * - the whole file system read-only (`--ro-bind / /`), a fresh /dev and /proc (so no process
 *   outside the sandbox, and no other process's environment, can be seen);
 * - `/tmp` replaced by a directory of this session's (a home inside it shown read-only again);
 * - read-write: the workspace, the package caches present, `sandboxWritable`;
 * - in the workspace, every git folder bound onto itself (it cannot be renamed or replaced) with
 *   what git reads as configuration read-only (git-shield.ts);
 * - hidden: `$SHIRO_HOME`, the credential places and the system places (container sockets, the
 *   user's runtime directory with its session bus), unless the workspace is inside one;
 * - read-only again: `sandboxReadable`;
 * - masked: the workspace's secrets files (reading one fails with "Permission denied").
 *
 * Paths that do not exist are left out (bubblewrap cannot mount over nothing on a read-only file
 * system), and so are hidden paths the private /tmp already covers. Pure.
 */
export function bwrapArgs(input: ProfileInput): { args: string[]; summary: ProfileSummary } {
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(input.network ? [] : ["--unshare-net"]),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    input.tmp,
    "/tmp",
  ];
  const summary: ProfileSummary = { writable: [], hidden: [], readable: [], masked: [], readOnly: [] };
  const bound: string[] = [];
  const visible = (path: string) => !isInside("/tmp", path) || bound.some((dir) => isInside(dir, path));

  // A home under /tmp (CI runners and containers set one) would vanish behind the private /tmp,
  // and with it the login profile and the caches: it is shown read-only, as any other home is.
  // Not a home that holds the session's /tmp (HOME=/tmp itself): that would show the host's /tmp,
  // other sessions' private folders included, over the private one.
  if (input.home && input.home !== "/tmp" && isInside("/tmp", input.home) && !isInside(input.home, input.tmp) && input.kindOf(input.home) === "dir") {
    args.push("--ro-bind", input.home, input.home);
    bound.push(input.home);
  }

  const caches = input.home ? CACHE_PLACES.map((place) => join(input.home!, place)) : [];
  for (const dir of [...caches, ...input.writable, input.root]) {
    if (!isAbsolute(dir) || input.kindOf(dir) === undefined || summary.writable.includes(dir)) continue;
    args.push("--bind", dir, dir);
    bound.push(dir);
    summary.writable.push(dir);
  }

  const credentials = input.home ? CREDENTIAL_PLACES.map((place) => join(input.home!, place)) : [];
  for (const path of [input.shiroHome, ...credentials, ...(input.hide ?? []), ...(input.system ?? [])]) {
    const kind = input.kindOf(path);
    if (kind === undefined || isInside(path, input.root) || !visible(path) || summary.hidden.includes(path)) continue;
    if (input.readable.some((shown) => isInside(shown, path))) continue; // shown on purpose
    args.push(...(kind === "dir" ? ["--tmpfs", path] : ["--ro-bind", "/dev/null", path]));
    summary.hidden.push(path);
  }

  // git's configuration runs programs on this machine outside the sandbox (an fsmonitor at the
  // next `git status`, a hook at the next commit): a command may not plant any.
  // Only inside what is writable already: binding a folder onto itself elsewhere would open it.
  const writableHere = (path: string) => summary.writable.some((dir) => isInside(dir, path));
  for (const [kind, path] of input.git?.mounts ?? []) {
    if (!writableHere(path)) continue;
    args.push(kind === "bind" ? "--bind" : "--ro-bind", path, path);
    if (kind === "ro") summary.readOnly.push(path);
  }

  for (const path of input.readable) {
    if (!isAbsolute(path) || input.kindOf(path) === undefined) continue;
    args.push("--ro-bind", path, path);
    summary.readable.push(path);
  }

  for (const file of input.secrets) {
    if (input.kindOf(file) !== "file" || !visible(file)) continue;
    args.push("--ro-bind", "/dev/null", file);
    summary.masked.push(file);
  }
  args.push("--chdir", "/");
  return { args, summary };
}
