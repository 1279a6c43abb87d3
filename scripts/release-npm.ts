/**
 * The npm packages of a release, the way esbuild and biome ship theirs: one small package,
 * `shiro-neko`, whose `shiro` command (npm/shiro-neko/bin/shiro.js, plain Node.js) runs the binary
 * of the platform package npm installed beside it, and one package per build
 * (`@shiro-neko/linux-x64`, …) with `os`, `cpu` (and `libc` on Linux) set, so npm installs only the
 * one that fits. They are listed in the main package's `optionalDependencies`; linux-x64-baseline
 * is not (every x86-64 Linux machine would download both builds): the launcher asks for it by name
 * on a CPU without AVX2. Each package is packed with `npm pack` into a `.tgz` beside the binaries.
 */
import { copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TARGETS, binaryName, type Target } from "./release-targets.ts";
import { ReleaseError } from "./release-verify.ts";

const root = join(import.meta.dir, "..");
export const MAIN_PACKAGE = "shiro-neko";
export const SCOPE = "@shiro-neko";

/** `@shiro-neko/linux-x64`. */
export function platformPackage(target: Target): string {
  return `${SCOPE}/${target.name}`;
}

/** `npm pack`'s file name for a package: `shiro-neko-0.2.0.tgz`, `shiro-neko-linux-x64-0.2.0.tgz`. */
export function tarballName(pkg: string, version: string): string {
  return `${pkg.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

const about = {
  description: "A coding agent for your terminal",
  license: "UNLICENSED",
  keywords: ["coding-agent", "cli", "openai"],
};

/** Writes and packs every package into `dir` (beside the binaries); returns the tarballs' names. */
export function packNpm(dir: string, version: string, targets: readonly Target[]): string[] {
  if (Bun.spawnSync(["npm", "--version"], { stdout: "ignore", stderr: "ignore" }).exitCode !== 0) {
    throw new ReleaseError("npm is not installed: the npm packages need npm pack (install Node.js and npm, or run bun run release --no-npm).");
  }
  const stage = join(dir, "npm-stage");
  rmSync(stage, { recursive: true, force: true });
  const tarballs: string[] = [];
  try {
    for (const target of targets) {
      const pkgDir = join(stage, target.name);
      const exe = target.os === "win32" ? "shiro.exe" : "shiro";
      mkdirSync(join(pkgDir, "bin"), { recursive: true });
      place(join(dir, binaryName(version, target)), join(pkgDir, "bin", exe));
      const name = platformPackage(target);
      writeJson(join(pkgDir, "package.json"), {
        name,
        version,
        ...about,
        description: `shiro for ${target.name}: installed by the shiro-neko package, not meant to be installed alone`,
        os: [target.os],
        cpu: [target.cpu],
        ...(target.os === "linux" ? { libc: ["glibc"] } : {}),
        preferUnplugged: true,
        files: [`bin/${exe}`],
      });
      writeFileSync(join(pkgDir, "README.md"), `# ${name}\n\nThe ${target.name} build of shiro. Install \`${MAIN_PACKAGE}\` instead: \`npm i -g ${MAIN_PACKAGE}\`.\n`);
      tarballs.push(pack(pkgDir, dir, name, version));
    }
    const mainDir = join(stage, MAIN_PACKAGE);
    mkdirSync(join(mainDir, "bin"), { recursive: true });
    copyFileSync(join(root, "npm", MAIN_PACKAGE, "bin", "shiro.js"), join(mainDir, "bin", "shiro.js"));
    // Every build's package, also those not packed in this run (`--targets`): the main package is the same whichever were.
    const optional = TARGETS.filter((t) => !t.name.endsWith("-baseline"));
    writeJson(join(mainDir, "package.json"), {
      name: MAIN_PACKAGE,
      version,
      ...about,
      bin: { shiro: "bin/shiro.js" },
      engines: { node: ">=18" },
      files: ["bin/shiro.js"],
      optionalDependencies: Object.fromEntries(optional.map((t) => [platformPackage(t), version])),
    });
    writeFileSync(join(mainDir, "README.md"), `# ${MAIN_PACKAGE}\n\nshiro, a coding agent for your terminal: \`npm i -g ${MAIN_PACKAGE}\`, then \`shiro\`.\n`);
    tarballs.push(pack(mainDir, dir, MAIN_PACKAGE, version));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return tarballs;
}

/** The binary in the package folder: a hard link (no second 100 MB copy), a copy where links fail. */
function place(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function pack(pkgDir: string, dest: string, name: string, version: string): string {
  const run = Bun.spawnSync(["npm", "pack", "--silent", "--pack-destination", dest], {
    cwd: pkgDir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
  });
  const file = tarballName(name, version);
  if (run.exitCode !== 0) throw new ReleaseError(`npm pack failed for ${name}: ${run.stderr.toString().trim().split("\n").at(-1) ?? ""}`);
  return file;
}
