/**
 * `bun run release`: the files of a release in dist/release/ (`--out <dir>` elsewhere):
 *
 *   shiro-<version>-<os>-<arch>[.exe]   one executable per build (scripts/release-targets.ts)
 *   install.sh                          scripts/install.sh, for `curl -fsSL …/install.sh | sh`
 *   SHA256SUMS                          the checksums of those, as `sha256sum -c` reads them
 *   *.tgz                               the npm packages (scripts/release-npm.ts; `--no-npm` skips them)
 *
 * Bun cross-compiles every build here; it fetches each target's runtime from the npm registry
 * the first time (kept in Bun's install cache). Before the checksums are written, every build is
 * checked (scripts/release-verify.ts): a build whose version is not package.json's stops the
 * release. `--targets linux-x64,darwin-arm64` builds only those (the specs use it); `--check <dir>`
 * only checks the builds an existing release folder holds.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileShiro } from "./compile.ts";
import { packNpm } from "./release-npm.ts";
import { TARGETS, binaryName, type Target } from "./release-targets.ts";
import { ReleaseError, verifyRelease, writeChecksums } from "./release-verify.ts";

const root = join(import.meta.dir, "..");

type Options = { out: string; targets: readonly Target[]; npm: boolean; check?: string };

function parseOptions(argv: string[]): Options {
  let out = join(root, "dist", "release");
  let targets: readonly Target[] = TARGETS;
  let npm = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--no-npm") npm = false;
    else if (arg === "--check" && argv[i + 1]) return { out, targets, npm, check: resolve(argv[++i]!) };
    else if (arg === "--out" && argv[i + 1]) out = resolve(argv[++i]!);
    else if (arg === "--targets" && argv[i + 1]) {
      const names = argv[++i]!.split(",").map((s) => s.trim());
      const unknown = names.find((n) => !TARGETS.some((t) => t.name === n));
      if (unknown) throw new ReleaseError(`unknown build "${unknown}": the builds are ${TARGETS.map((t) => t.name).join(", ")}.`);
      targets = TARGETS.filter((t) => names.includes(t.name));
    } else throw new ReleaseError(`unknown argument "${arg}": bun run release [--out <dir>] [--targets a,b] [--no-npm], or bun run release --check <dir>`);
  }
  return { out, targets, npm };
}

/** Removes what an earlier release left in `out` (its executables, sums and tarballs); other files stay. */
function clearOld(out: string): void {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) {
    if (/^shiro-.*\d/.test(name) || name === "SHA256SUMS" || name === "install.sh" || name.endsWith(".tgz") || name === "npm-stage") rmSync(join(out, name), { recursive: true, force: true });
  }
}

const packageVersion = () => (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

/** `--check <dir>`: checks the builds a release folder holds for package.json's version, as a release does before its sums. */
function check(dir: string): void {
  const version = packageVersion();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new ReleaseError(`cannot read ${dir}: give the folder of a release (bun run release writes dist/release).`);
  }
  const present = TARGETS.filter((t) => names.includes(binaryName(version, t)));
  if (present.length === 0) throw new ReleaseError(`${dir} holds no build of shiro ${version} (shiro-${version}-<os>-<arch>): run bun run release.`);
  verifyRelease(dir, version, present);
  console.log(`checked: ${present.map((t) => binaryName(version, t)).join(", ")} are shiro ${version} for the systems their names say`);
}

async function release(options: Options): Promise<void> {
  const version = packageVersion();
  clearOld(options.out);
  const names: string[] = [];
  for (const target of options.targets) {
    const name = binaryName(version, target);
    const started = performance.now();
    try {
      await compileShiro(join(options.out, name), { bunTarget: target.bunTarget, name: target.name });
    } catch (error) {
      throw new ReleaseError(`building ${name} failed: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]} (Bun fetches each target's runtime from the npm registry: is it reachable?)`);
    }
    names.push(name);
    const mb = Bun.file(join(options.out, name)).size / 1024 / 1024;
    console.log(`built ${name} (${mb.toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
  }
  verifyRelease(options.out, version, options.targets);
  console.log(`checked: every build is shiro ${version} for the system its name says`);
  copyFileSync(join(root, "scripts", "install.sh"), join(options.out, "install.sh"));
  await writeChecksums(options.out, [...names, "install.sh"]);
  console.log(`wrote ${join(options.out, "SHA256SUMS")}`);
  if (options.npm) {
    const started = performance.now();
    const tarballs = packNpm(options.out, version, options.targets);
    console.log(`packed ${tarballs.join(", ")} in ${Math.round(performance.now() - started)} ms`);
  }
}

try {
  const options = parseOptions(process.argv.slice(2));
  if (options.check) check(options.check);
  else await release(options);
} catch (error) {
  if (!(error instanceof ReleaseError)) throw error;
  console.error(`release: ${error.message}`);
  process.exit(1);
}
