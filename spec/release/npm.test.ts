// The npm package end to end: a real registry (verdaccio 6.8.0, the last release that runs on
// Node 20) installed into a temp folder and started on 127.0.0.1 by this file; the release's
// tarballs published to it; `npm i -g shiro-neko` into a fresh prefix; the `shiro` it gives run
// with Node and no Bun on the PATH, against the strict fake server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shiroEnv, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { HOST, HOST_BASELINE, VERSION, fileOf, hostRelease, bigTempDir, releaseUnavailable, removeBigDirsAfterAll, reportSkip } from "./support.ts";

const node = Bun.which("node");
const npm = Bun.which("npm");
const unavailable = (await releaseUnavailable()) ?? (node && npm ? undefined : "node and npm are needed for the npm package specs");
reportSkip("spec/release/npm.test.ts", unavailable);
removeBigDirsAfterAll();

const VERDACCIO = "verdaccio@6.8.0";

type Run = { code: number; stdout: string; stderr: string };

async function run(cmd: string[], env: Record<string, string>, opts: { stdin?: string; cwd?: string } = {}): Promise<Run> {
  const child = Bun.spawn(cmd, { env, cwd: opts.cwd, stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

describe.skipIf(unavailable !== undefined)("npm i -g shiro-neko from a local registry", () => {
  const serve = useFakeServer();
  let registry: ReturnType<typeof Bun.spawn> | undefined;
  let npmEnv: Record<string, string> = {};
  let prefix = "";
  /** A PATH with Node on it and nothing else: no Bun. */
  let nodeOnly = "";

  async function npmRun(args: string[]): Promise<Run> {
    const result = await run([npm!, ...args], npmEnv);
    if (result.code !== 0) throw new Error(`npm ${args.join(" ")} exited ${result.code}:\n${result.stdout}${result.stderr}`);
    return result;
  }

  /** `npm i -g` into a fresh prefix; returns the prefix. */
  async function installGlobal(...args: string[]): Promise<string> {
    const to = bigTempDir("shiro-npm-prefix-");
    await npmRun(["install", "--global", "--prefix", to, ...args]);
    return to;
  }

  beforeAll(async () => {
    const release = await hostRelease();
    const work = bigTempDir("shiro-npm-");
    const home = join(work, "home");
    mkdirSync(home);
    nodeOnly = join(work, "node-only");
    mkdirSync(nodeOnly);
    symlinkSync(node!, join(nodeOnly, "node"));
    // This process's environment (the machine's proxy and CA settings reach npm), a temp HOME and cache.
    const baseEnv = { ...(process.env as Record<string, string>), HOME: home, npm_config_cache: join(work, "npm-cache"), npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

    // The registry: verdaccio from the npm registry, into its own folder.
    const tools = join(work, "verdaccio");
    const setup = await run([npm!, "install", "--prefix", tools, "--no-save", "--silent", VERDACCIO], baseEnv);
    if (setup.code !== 0) throw new Error(`npm install ${VERDACCIO} failed:\n${setup.stderr}`);
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const url = `http://127.0.0.1:${port}/`;
    // No uplinks (nothing is fetched from or sent past it), anonymous publish, and a body limit
    // above a build's size.
    writeFileSync(
      join(work, "config.yaml"),
      [
        `storage: ${join(work, "storage")}`,
        "max_body_size: 400mb",
        "uplinks: {}",
        "auth:",
        "  htpasswd:",
        `    file: ${join(work, "htpasswd")}`,
        "    max_users: -1",
        "packages:",
        "  '**':",
        "    access: $all",
        "    publish: $anonymous",
        "    unpublish: $anonymous",
        "log: { type: stdout, format: pretty, level: error }",
        "",
      ].join("\n"),
    );
    registry = Bun.spawn([node!, join(tools, "node_modules", "verdaccio", "bin", "verdaccio"), "--config", join(work, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
      env: baseEnv,
      stdout: "ignore",
      stderr: "ignore",
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`${url}-/ping`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > deadline || registry.exitCode !== null) throw new Error(`verdaccio did not start on ${url}`);
      await Bun.sleep(200);
    }
    // npm will not publish without a token for the registry; verdaccio takes an unknown one as anonymous.
    const npmrc = join(work, "npmrc");
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=anonymous\n`);
    npmEnv = { ...baseEnv, npm_config_userconfig: npmrc };

    // This machine's package (and the baseline one), then the main package. The other systems'
    // packages are not published: npm skips a missing optional dependency.
    for (const name of [`shiro-neko-${HOST!}`, ...(HOST_BASELINE ? [`shiro-neko-${HOST_BASELINE}`] : []), "shiro-neko"]) {
      await npmRun(["publish", join(release, `${name}-${VERSION}.tgz`)]);
    }
    prefix = await installGlobal("shiro-neko");
  }, 600_000);

  afterAll(async () => {
    if (!registry) return;
    registry.kill();
    if ((await Promise.race([registry.exited, Bun.sleep(3000).then(() => "waiting")])) === "waiting") registry.kill("SIGKILL");
    await registry.exited;
  }, 30_000);

  /** The installed `shiro`, run with Node but no Bun on the PATH. */
  const shiro = (at: string, args: string[], opts: { baseURL?: string; stdin?: string } = {}) =>
    run([join(at, "bin", "shiro"), ...args], shiroEnv(tempDir("shiro-npm-home-"), opts.baseURL, { PATH: nodeOnly }), { stdin: opts.stdin, cwd: tempDir("shiro-npm-work-") });

  test("the shiro it installs runs on Node alone: --version names the version, Bun inside and the build", async () => {
    expect(Bun.which("bun", { PATH: nodeOnly })).toBeNull();
    const version = await shiro(prefix, ["--version"]);
    expect(version).toEqual({ code: 0, stdout: `shiro ${VERSION} (bun ${Bun.version}, ${HOST!})\n`, stderr: "" });
  }, 60_000);

  test("a headless turn against the fake server answers through the launcher", async () => {
    const s = await serve({ text: "installed with npm" });
    const turn = await shiro(prefix, ["-p", "say where you come from"], { baseURL: s.url });
    expect(turn.stdout).toBe("installed with npm\n");
    expect(turn.code).toBe(0);
    expect(JSON.stringify(s.requests[0]!.body)).toContain("say where you come from");
  }, 60_000);

  test("shiro's exit code comes back through the launcher: 2 for a usage error", async () => {
    const usage = await shiro(prefix, ["-p"]);
    expect(usage.stderr).toBe('shiro: no prompt: pass one with -p "…" or pipe text on stdin.\n');
    expect(usage.code).toBe(2);
  }, 60_000);

  test("SIGINT to the launcher reaches shiro, which ends its turn and exits 130, and so does the launcher", async () => {
    const s = await serve({ fault: "hang" });
    const child = Bun.spawn([join(prefix, "bin", "shiro"), "-p", "hi"], { env: shiroEnv(tempDir("shiro-npm-home-"), s.url, { PATH: nodeOnly }), cwd: tempDir("shiro-npm-work-"), stdout: "pipe", stderr: "pipe" });
    while (s.requests.length === 0) await Bun.sleep(20);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    expect(await new Response(child.stderr).text()).toContain("interrupted by SIGINT");
  }, 60_000);

  test("installed without this platform's package: one line naming the missing package and the platform", async () => {
    // npm leaves an optional dependency out when it cannot install it (or is told to: --omit=optional).
    const bare = await installGlobal("shiro-neko");
    rmSync(join(bare, "lib", "node_modules", "shiro-neko", "node_modules", "@shiro-neko"), { recursive: true });
    const run = await shiro(bare, ["--version"]);
    expect(run.stderr).toBe(`shiro: the package @shiro-neko/${HOST!}, which holds shiro for ${HOST!}, is not installed (npm leaves it out when it cannot fetch it, or with --omit=optional): install shiro-neko again (npm i -g shiro-neko).\n`);
    expect(run.code).toBe(1);
  }, 120_000);

  /** Runs the installed launcher with Node's view of the machine changed first (a preload). */
  const launcherOn = (at: string, preload: string, args: string[]) => {
    const file = join(tempDir("shiro-npm-preload-"), "preload.cjs");
    writeFileSync(file, preload);
    return run([node!, "--require", file, join(at, "lib", "node_modules", "shiro-neko", "bin", "shiro.js"), ...args], { PATH: nodeOnly, HOME: tempDir("shiro-npm-home-") });
  };

  test("a system with no build: one line naming it and the builds there are", async () => {
    const run = await launcherOn(prefix, 'Object.defineProperty(process, "platform", { value: "freebsd" });', ["--version"]);
    expect(run.stderr).toBe(`shiro: there is no build of shiro for freebsd-${process.arch}: the npm package has linux-x64, linux-arm64, darwin-x64, darwin-arm64 and windows-x64; on another system build it from source (see docs/install.md).\n`);
    expect(run.code).toBe(1);
  }, 60_000);

  const noAvx2 = `const fs = require("node:fs"); const read = fs.readFileSync;
fs.readFileSync = (p, ...rest) => p === "/proc/cpuinfo" ? "processor\\t: 0\\nflags\\t\\t: fpu sse sse2 avx\\n" : read(p, ...rest);`;

  test.skipIf(!HOST_BASELINE)("a CPU without AVX2: the baseline package when it is installed, else one line saying how to install it", async () => {
    const without = await launcherOn(prefix, noAvx2, ["--version"]);
    expect(without.stderr).toBe("shiro: this CPU has no AVX2, which the linux-x64 build needs: install the baseline build as well: npm i -g @shiro-neko/linux-x64-baseline (or npm i @shiro-neko/linux-x64-baseline beside shiro-neko).\n");
    expect(without.code).toBe(1);
    const both = await installGlobal("shiro-neko", "@shiro-neko/linux-x64-baseline");
    const withIt = await launcherOn(both, noAvx2, ["--version"]);
    expect(withIt.stdout).toBe(`shiro ${VERSION} (bun ${Bun.version}, linux-x64-baseline)\n`);
    expect(withIt.code).toBe(0);
  }, 120_000);
});
