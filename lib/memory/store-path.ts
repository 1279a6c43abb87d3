import { join } from "node:path";
import { projectHash } from "../fs/project-root.ts";

/**
 * Where a project's memory lives: `<home>/memory/<hash>.json`. `home` is shiro's home
 * (`shiroHome(env)`), `projectRoot` the git top-level containing the cwd, or the cwd outside a
 * repository (`findProjectRoot(cwd)`, already in `runtime.workspace.root`). Pure: touches nothing.
 */
export function memoryStorePath(home: string, projectRoot: string): string {
  return join(home, "memory", `${projectHash(projectRoot)}.json`);
}
