// What the release specs share: a release built once per test run, the registry check that
// decides whether they can run here, and a static file server on 127.0.0.1.
import { afterAll } from "bun:test";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../support/shared-fixtures.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

export const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** A release's builds, as docs/install.md lists them. */
export const BUILDS = ["linux-x64", "linux-x64-baseline", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
/** The file name of a build: `shiro-0.2.0-linux-x64`, `shiro-0.2.0-windows-x64.exe`. */
export const fileOf = (build: string, version = VERSION) => `shiro-${version}-${build}${build.startsWith("windows") ? ".exe" : ""}`;
const os = process.platform === "win32" ? "windows" : process.platform;
/** The build for this machine, when a release has one. */
export const HOST: string | undefined = BUILDS.find((b) => b === `${os}-${process.arch}`);
/** The x86-64 Linux build for CPUs without AVX2, when this machine is x86-64 Linux. */
export const HOST_BASELINE: string | undefined = HOST === "linux-x64" ? "linux-x64-baseline" : undefined;

/** Why the release specs cannot run here (no build for this system, or no npm registry), or undefined. */
export async function releaseUnavailable(): Promise<string | undefined> {
  if (!HOST) return `there is no release build for ${process.platform}-${process.arch}`;
  registryCheck ??= (async () => {
    const registry = (process.env.npm_config_registry ?? process.env.NPM_CONFIG_REGISTRY ?? "https://registry.npmjs.org/").replace(/\/?$/, "/");
    try {
      const res = await fetch(`${registry}bun`, { method: "HEAD", signal: AbortSignal.timeout(8000) });
      return res.ok ? undefined : `the npm registry (${registry}) answered ${res.status}: Bun fetches the other targets' runtimes there`;
    } catch (error) {
      return `the npm registry (${registry}) cannot be reached (${(error as Error).message}): Bun fetches the other targets' runtimes there`;
    }
  })();
  return registryCheck;
}
let registryCheck: Promise<string | undefined> | undefined;

const reported = new Set<string>();
/** Says once per file, on stderr, that its tests skip and why: a skip must be visible. */
export function reportSkip(file: string, why: string | undefined): void {
  if (why && !reported.has(file)) {
    reported.add(file);
    process.stderr.write(`SKIP ${file}: ${why}\n`);
  }
}

const big: string[] = [];
/**
 * A temp dir for builds and installs (100 MB and more each), removed when the file that made it
 * ends: left to the end of the whole run, a few GB would be deleted in the run's last hook.
 */
export function bigTempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  big.push(dir);
  return dir;
}
/** Call at the top of each release spec file: its big temp dirs go when its tests are done. */
export function removeBigDirsAfterAll(): void {
  afterAll(() => {
    for (const dir of big.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, 300_000);
}

/** Runs `bun run release` with these arguments; throws with its output when it fails. */
export async function release(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([process.execPath, "run", "--silent", "release", ...args], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe", env: process.env });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** `bun run release` that must succeed: its folder, output and time. */
export async function runRelease(args: string[]): Promise<{ out: string; log: string; ms: number }> {
  const started = performance.now();
  const { code, stdout, stderr } = await release(args);
  if (code !== 0) throw new Error(`bun run release ${args.join(" ")} exited ${code}:\n${stdout}${stderr}`);
  return { out: args[args.indexOf("--out") + 1]!, log: stdout + stderr, ms: performance.now() - started };
}

/**
 * A release of this machine's builds (and the baseline one on x86-64 Linux) with its npm
 * tarballs, built once per test run for the installer and npm specs.
 */
export function hostRelease(): Promise<string> {
  hostBuild ??= (async () => {
    const dir = makeTempDir("shiro-release-host-");
    await runRelease(["--out", dir, "--targets", [HOST!, ...(HOST_BASELINE ? [HOST_BASELINE] : [])].join(",")]);
    return dir;
  })();
  return hostBuild;
}
let hostBuild: Promise<string> | undefined;

/** Serves `root`'s files on 127.0.0.1 (a release page, or a mirror of one); a missing file is a 404. */
export function serveFolder(root: string): { url: string; stop: () => void } {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      if (path.includes("..")) return new Response("bad path", { status: 400 });
      const file = join(root, path);
      try {
        if (!statSync(file).isFile()) return new Response("not found", { status: 404 });
      } catch {
        return new Response("not found", { status: 404 });
      }
      return new Response(Bun.file(file));
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
