import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

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
