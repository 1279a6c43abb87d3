import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The project a directory belongs to: the git top-level containing `cwd`, or `cwd` itself
 * outside a repository. Memory, prompt history and the workspace boundary all key on it, so
 * shiro started in a subdirectory shares them with the rest of the repository.
 */
export function findProjectRoot(cwd: string): string {
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}

/**
 * The first 16 hex characters of the SHA-256 of the project's absolute path: the file name of
 * its memory store and its prompt history. Stable across sessions and processes, so every shiro
 * started anywhere inside the project shares them.
 */
export function projectHash(projectRoot: string): string {
  return new Bun.CryptoHasher("sha256").update(resolve(projectRoot)).digest("hex").slice(0, 16);
}
