// The temp dirs a test run made, removed when the run ends: nothing is left in /tmp. `bun test`
// does not fire the process's "exit" event, so the preload removes them after the last test
// (preload.ts); the exit handler covers scripts that are not tests (the bench, the demo).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];
process.on("exit", removeTempDirs);

/** Removes every directory makeTempDir made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh directory under the system temp dir (or `base`), symlinks resolved, removed when the run ends. */
export function makeTempDir(prefix: string, base = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(base, prefix)));
  made.push(dir);
  return dir;
}
