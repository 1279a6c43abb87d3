import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../support/temp-dirs.ts";

export { reportSkip, sandboxUnavailable } from "../support/host-tools.ts";

/**
 * A fresh temp dir outside /tmp (in /var/tmp when it is writable): the sandbox replaces /tmp, so a
 * layout under it would be invisible inside, and the specs could not tell read-only from hidden.
 */
export function visibleTempDir(prefix: string): string {
  let base = "/var/tmp";
  try {
    accessSync(base, constants.W_OK);
  } catch {
    base = require("node:os").tmpdir();
  }
  return makeTempDir(prefix, base);
}

/**
 * A home, a workspace (`ws`) and a sibling folder outside it holding `file.txt` ("before"), in a
 * visibleTempDir, so the sandbox shows the sibling read-only. `top` is for the caller to remove.
 */
export function siblingLayout(prefix: string): { top: string; home: string; cwd: string; sibling: string } {
  const top = visibleTempDir(prefix);
  const home = join(top, "home");
  const cwd = join(top, "ws");
  const sibling = join(top, "sibling");
  for (const dir of [home, cwd, sibling]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(sibling, "file.txt"), "before\n");
  return { top, home, cwd, sibling };
}
