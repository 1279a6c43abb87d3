// `bun run release`: six builds named for their system, each checked, and their checksums; the
// npm tarballs beside them. Builds for other systems cannot run here, so their headers are read.
import { beforeAll, describe, expect, test } from "bun:test";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../support/temp-dirs.ts";
import { BUILDS, HOST, HOST_BASELINE, VERSION, fileOf, hostRelease, release, bigTempDir, releaseUnavailable, removeBigDirsAfterAll, reportSkip, runRelease } from "./support.ts";

const unavailable = await releaseUnavailable();
reportSkip("spec/release/release.test.ts", unavailable);
removeBigDirsAfterAll();

/** The first bytes of a file. */
function head(path: string, length = 4096): Buffer {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(length);
  readSync(fd, buffer, 0, length, 0);
  closeSync(fd);
  return buffer;
}

/** What the header says, read here on its own terms: format and CPU. */
function header(path: string): string {
  const b = head(path);
  if (b.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) {
    const bits = b[4] === 2 ? "64-bit" : "32-bit";
    const cpu = ({ 0x3e: "x86-64", 0xb7: "aarch64" } as Record<number, string>)[b.readUInt16LE(18)] ?? `machine ${b.readUInt16LE(18)}`;
    return `ELF ${bits} ${cpu}`;
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = ({ 0x01000007: "x86_64", 0x0100000c: "arm64" } as Record<number, string>)[b.readUInt32LE(4)] ?? "other";
    return `Mach-O 64-bit ${cpu}`;
  }
  if (b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    if (b.toString("latin1", pe, pe + 4) !== "PE\0\0") return "MZ without PE";
    return `PE ${b.readUInt16LE(pe + 4) === 0x8664 ? "x86-64" : "other"}`;
  }
  return "unknown";
}

const EXPECTED_HEADERS: Record<string, string> = {
  "linux-x64": "ELF 64-bit x86-64",
  "linux-x64-baseline": "ELF 64-bit x86-64",
  "linux-arm64": "ELF 64-bit aarch64",
  "darwin-x64": "Mach-O 64-bit x86_64",
  "darwin-arm64": "Mach-O 64-bit arm64",
  "windows-x64": "PE x86-64",
};

describe.skipIf(unavailable !== undefined)("bun run release, every build", () => {
  let dir = "";
  let log = "";
  beforeAll(async () => {
    dir = bigTempDir("shiro-release-all-");
    const run = await runRelease(["--out", dir, "--no-npm"]);
    log = run.log;
    process.stderr.write(`release of ${BUILDS.length} builds (no npm packages) took ${(run.ms / 1000).toFixed(1)} s\n`);
  }, 600_000);

  test("six builds named shiro-<version>-<os>-<arch>, the installer, and SHA256SUMS that sha256sum -c accepts", () => {
    expect(readdirSync(dir).sort()).toEqual(
      [
        "SHA256SUMS",
        "install.sh",
        `shiro-${VERSION}-darwin-arm64`,
        `shiro-${VERSION}-darwin-x64`,
        `shiro-${VERSION}-linux-arm64`,
        `shiro-${VERSION}-linux-x64`,
        `shiro-${VERSION}-linux-x64-baseline`,
        `shiro-${VERSION}-windows-x64.exe`,
      ].sort(),
    );
    expect(log).toContain(`checked: every build is shiro ${VERSION} for the system its name says`);
    const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(check.stdout.toString().trim().split("\n").sort()).toEqual(readdirSync(dir).filter((n) => n !== "SHA256SUMS").map((n) => `${n}: OK`).sort());
    expect(check.exitCode).toBe(0);
  }, 60_000);

  test("each build's header is the system its name says: ELF x86-64 and aarch64, Mach-O x86_64 and arm64, PE x86-64", () => {
    const seen = Object.fromEntries(BUILDS.map((b) => [b, header(join(dir, fileOf(b)))]));
    expect(seen).toEqual(EXPECTED_HEADERS);
  });

  test("the builds for this machine run and say the version, the Bun inside and the build", () => {
    for (const build of [HOST!, ...(HOST_BASELINE ? [HOST_BASELINE] : [])]) {
      const run = Bun.spawnSync([join(dir, fileOf(build)), "--version"], { stdout: "pipe", stderr: "pipe" });
      expect(run.stdout.toString()).toBe(`shiro ${VERSION} (bun ${Bun.version}, ${build})\n`);
      expect(run.exitCode).toBe(0);
    }
  }, 30_000);

  test("bun run release --check accepts the release it made", async () => {
    const run = await release(["--check", dir]);
    expect(run.stdout).toBe(`checked: ${BUILDS.map((b) => fileOf(b)).join(", ")} are shiro ${VERSION} for the systems their names say\n`);
    expect(run.code).toBe(0);
  }, 120_000);

  test("a build that carries another version than package.json is refused, in one line naming the build and both versions", async () => {
    // The same builds with the version in their bundle changed (same length, so nothing moves).
    const inside = `${VERSION.slice(0, -1)}${VERSION.endsWith("9") ? "8" : "9"}`;
    for (const build of BUILDS) {
      const stale = bigTempDir("shiro-release-stale-");
      const bytes = readFileSync(join(dir, fileOf(build)));
      const marker = Buffer.from(`version:"${VERSION}"`);
      const at = bytes.indexOf(marker);
      expect(at).toBeGreaterThan(0);
      bytes.write(`version:"${inside}"`, at, "latin1");
      writeFileSync(join(stale, fileOf(build)), bytes, { mode: 0o755 });
      const run = await release(["--check", stale]);
      expect(run.stderr).toBe(`release: ${fileOf(build)} says it is shiro ${inside} but package.json says ${VERSION}: they must agree; rebuild with bun run release.\n`);
      expect(run.code).toBe(1);
    }
  }, 300_000);

  test("a build that is not for the system its name says is refused", async () => {
    const wrong = makeTempDir("shiro-release-wrong-");
    linkSync(join(dir, fileOf("darwin-arm64")), join(wrong, fileOf("linux-arm64")));
    const run = await release(["--check", wrong]);
    expect(run.stderr).toBe(`release: ${fileOf("linux-arm64")} is an executable for darwin-arm64, not linux-arm64: the build went wrong; run bun run release again.\n`);
    expect(run.code).toBe(1);
  }, 60_000);
});

describe.skipIf(unavailable !== undefined)("bun run release, the npm tarballs", () => {
  test("one package per build with os, cpu (and libc on Linux) set and the binary inside, and the main package with the launcher", async () => {
    const dir = await hostRelease();
    const host = HOST!;
    const hostOs = host.startsWith("windows") ? "win32" : host.split("-")[0];
    const names = readdirSync(dir).filter((n) => n.endsWith(".tgz")).sort();
    const expected = [`shiro-neko-${VERSION}.tgz`, `shiro-neko-${host}-${VERSION}.tgz`, ...(HOST_BASELINE ? [`shiro-neko-${HOST_BASELINE}-${VERSION}.tgz`] : [])];
    expect(names).toEqual(expected.sort());
    const unpack = bigTempDir("shiro-release-tgz-");
    for (const name of names) {
      const to = join(unpack, name);
      mkdirSync(to);
      expect(Bun.spawnSync(["tar", "-xzf", join(dir, name), "-C", to]).exitCode).toBe(0);
    }
    const platform = JSON.parse(await Bun.file(join(unpack, `shiro-neko-${host}-${VERSION}.tgz`, "package", "package.json")).text());
    expect(platform).toMatchObject({ name: `@shiro-neko/${host}`, version: VERSION, os: [hostOs], cpu: [process.arch] });
    if (hostOs === "linux") expect(platform.libc).toEqual(["glibc"]);
    expect(header(join(unpack, `shiro-neko-${host}-${VERSION}.tgz`, "package", "bin", "shiro"))).toBe(EXPECTED_HEADERS[host]!);
    const main = JSON.parse(await Bun.file(join(unpack, `shiro-neko-${VERSION}.tgz`, "package", "package.json")).text());
    expect(main.bin).toEqual({ shiro: "bin/shiro.js" });
    // Every build but the baseline one is an optional dependency, at this exact version.
    expect(main.optionalDependencies).toEqual({
      "@shiro-neko/linux-x64": VERSION,
      "@shiro-neko/linux-arm64": VERSION,
      "@shiro-neko/darwin-x64": VERSION,
      "@shiro-neko/darwin-arm64": VERSION,
      "@shiro-neko/windows-x64": VERSION,
    });
  }, 600_000);
});

test("an unknown build name is refused in one line that lists the builds", async () => {
  const run = await release(["--targets", "linux-x64,plan9-mips"]);
  expect(run.stderr).toBe(`release: unknown build "plan9-mips": the builds are ${BUILDS.join(", ")}.\n`);
  expect(run.code).toBe(1);
});
