import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

/**
 * The first 16 hex characters of the SHA-256 of the project's absolute path. Stable across
 * sessions and processes, so every shiro started anywhere inside the project shares one store.
 */
export function projectHash(projectRoot: string): string {
  return createHash("sha256").update(resolve(projectRoot)).digest("hex").slice(0, 16);
}

/**
 * Where a project's memory lives: `<home>/memory/<hash>.json`. `home` is shiro's home
 * (`shiroHome(env)`), `projectRoot` the git top-level containing the cwd, or the cwd outside a
 * repository (`findProjectRoot(cwd)`, already in `runtime.env.root`). Pure: touches nothing.
 */
export function memoryStorePath(home: string, projectRoot: string): string {
  return join(home, "memory", `${projectHash(projectRoot)}.json`);
}
