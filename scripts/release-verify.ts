/**
 * Checks a release folder before anything is published from it: every build is for the system its
 * name says, and carries package.json's version. The build for this machine is run (its
 * `--version` line must be exactly right); the others cannot run here, so their headers and the
 * version in their bytes are read. Also writes and reads SHA256SUMS.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryName, embeddedVersion, hostTarget, machineOf, type Target } from "./release-targets.ts";

/** A release that must not go out, in one line that says why and what to do. */
export class ReleaseError extends Error {}

/** Throws a ReleaseError at the first build in `dir` that is not what package.json's `version` says. */
export function verifyRelease(dir: string, version: string, targets: readonly Target[]): void {
  const host = hostTarget();
  for (const target of targets) {
    const name = binaryName(version, target);
    const path = join(dir, name);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch {
      throw new ReleaseError(`${name} is missing from ${dir}: run bun run release again.`);
    }
    const machine = machineOf(bytes);
    if (machine !== target.machine) throw new ReleaseError(`${name} is an executable for ${machine ?? "no known system"}, not ${target.machine}: the build went wrong; run bun run release again.`);
    const inside = embeddedVersion(bytes);
    if (inside === undefined && target !== host) throw new ReleaseError(`cannot find the version compiled into ${name}: this Bun writes the bundle differently; see scripts/release-targets.ts embeddedVersion.`);
    if (inside !== undefined && inside !== version) throw new ReleaseError(disagree(name, inside, version));
    if (target === host) {
      const run = Bun.spawnSync([path, "--version"], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
      const line = run.stdout.toString().trim();
      const expected = `shiro ${version} (bun ${Bun.version}, ${target.name})`;
      if (run.exitCode !== 0) throw new ReleaseError(`${name} --version failed (exit ${run.exitCode}): ${run.stderr.toString().trim().split("\n")[0] ?? ""}`);
      const said = /^shiro (\S+) /.exec(line)?.[1];
      if (said !== version) throw new ReleaseError(disagree(name, said ?? line, version));
      if (line !== expected) throw new ReleaseError(`${name} --version says "${line}", expected "${expected}": check cmd/shiro.ts versionLine.`);
    }
  }
}

function disagree(name: string, inside: string, version: string): string {
  return `${name} says it is shiro ${inside} but package.json says ${version}: they must agree; rebuild with bun run release.`;
}

/** SHA256SUMS in `sha256sum -c`'s format: `<hex>  <name>`, one file a line, sorted by name. */
export async function writeChecksums(dir: string, names: readonly string[]): Promise<string> {
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(join(dir, name)).stream()) hasher.update(chunk);
    lines.push(`${hasher.digest("hex")}  ${name}\n`);
  }
  const path = join(dir, "SHA256SUMS");
  writeFileSync(`${path}.tmp`, lines.join(""));
  renameSync(`${path}.tmp`, path);
  return path;
}
