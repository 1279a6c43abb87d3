import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../support/temp-dirs.ts";
import { detectSandbox } from "../../lib/sandbox/detect.ts";
import { findHelper } from "../../lib/sandbox/helpers.ts";

/** Why the sandboxed specs cannot run here, or undefined when bubblewrap works. Printed by the specs that skip. */
export function sandboxUnavailable(): string | undefined {
  const support = detectSandbox(findHelper("bwrap", { path: process.env.PATH, root: "/nonexistent-workspace" }));
  return support.available ? undefined : `${support.why} (${support.fix})`;
}

const reported = new Set<string>();

/** Says once per file, on stderr, that its sandbox tests skip and why: a skip must be visible. */
export function reportSkip(file: string, why: string | undefined): void {
  if (why && !reported.has(file)) {
    reported.add(file);
    process.stderr.write(`SKIP ${file}: the sandbox cannot run here: ${why}\n`);
  }
}

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
