// scripts/install.sh end to end, run by dash (Debian's /bin/sh, a strict POSIX shell) the way a
// user runs it, `curl -fsSL …/install.sh | sh`, against a release folder served on 127.0.0.1.
// Other systems are shown to the script with a fake `uname` (and `ldd`) first on its PATH.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../support/temp-dirs.ts";
import { HOST, HOST_BASELINE, VERSION, fileOf, hostRelease, bigTempDir, releaseUnavailable, removeBigDirsAfterAll, reportSkip, serveFolder } from "./support.ts";

const dash = Bun.which("dash");
const unavailable = (await releaseUnavailable()) ?? (dash ? undefined : "dash (Debian's /bin/sh) is not installed: the installer specs prove POSIX sh with it") ?? (Bun.which("curl") ? undefined : "curl is not installed");
reportSkip("spec/release/install.test.ts", unavailable);
removeBigDirsAfterAll();

type Run = { code: number; stdout: string; stderr: string; home: string; dir: string };

describe.skipIf(unavailable !== undefined)("scripts/install.sh", () => {
  let server: { url: string; stop: () => void };
  let site = "";
  beforeAll(async () => {
    const release = await hostRelease();
    site = bigTempDir("shiro-install-site-");
    const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
    const folder = (name: string, files: Record<string, string | { from: string }>) => {
      mkdirSync(join(site, name));
      for (const [file, content] of Object.entries(files)) {
        if (typeof content === "string") writeFileSync(join(site, name, file), content);
        else linkSync(content.from, join(site, name, file));
      }
    };
    const releaseFiles = Object.fromEntries(readdirSync(release).filter((n) => !n.endsWith(".tgz")).map((n) => [n, { from: join(release, n) }]));
    folder("good", releaseFiles);
    // The same sums, and a build with one byte changed.
    const hostName = fileOf(HOST!);
    const tampered = readFileSync(join(release, hostName));
    const at = tampered.length - 100;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0xff, at);
    writeFileSync(join(site, "tampered-build"), tampered);
    folder("tampered", { SHA256SUMS: sums, [hostName]: { from: join(site, "tampered-build") } });
    // A release without this machine's build.
    folder("no-build", { SHA256SUMS: sums.split("\n").filter((l) => !l.endsWith(`  ${hostName}`)).join("\n") });
    server = serveFolder(site);
  }, 600_000);
  afterAll(() => server?.stop());

  /** `curl -fsSL <base>/install.sh | dash`, with a fresh HOME; `fake` puts stand-in programs first on the PATH. */
  async function install(base: string, opts: { env?: Record<string, string>; fake?: Record<string, string>; home?: string } = {}): Promise<Run> {
    const home = opts.home ?? bigTempDir("shiro-install-home-");
    let path = process.env.PATH!;
    if (opts.fake) {
      const bin = makeTempDir("shiro-install-fakes-");
      for (const [name, script] of Object.entries(opts.fake)) {
        writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
        chmodSync(join(bin, name), 0o755);
      }
      path = `${bin}:${path}`;
    }
    const tmp = bigTempDir("shiro-install-tmp-");
    const child = Bun.spawn([dash!, "-c", `curl -fsSL "${server.url}/good/install.sh" | "${dash}"`], {
      cwd: home,
      env: { PATH: path, HOME: home, TMPDIR: tmp, SHELL: "/bin/bash", SHIRO_INSTALL_BASE: base, ...opts.env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    // Whatever happened, the download folder is gone: nothing half-installed is left behind.
    expect(readdirSync(tmp)).toEqual([]);
    return { code, stdout, stderr, home, dir: opts.env?.SHIRO_INSTALL_DIR ?? join(home, ".local", "bin") };
  }

  const versionOf = (path: string) => Bun.spawnSync([path, "--version"], { stdout: "pipe" }).stdout.toString();

  test("installs this machine's build, checked, into ~/.local/bin, and says how to put that on the PATH", async () => {
    const run = await install(`${server.url}/good`);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        `shiro install: downloading ${fileOf(HOST!)}`,
        `shiro install: installed shiro ${VERSION} (bun ${Bun.version}, ${HOST!}) at ${run.dir}/shiro`,
        `shiro install: ${run.dir} is not on your PATH: add it with  echo 'export PATH="${run.dir}:$PATH"' >> ~/.bashrc  then open a new terminal.`,
        "",
      ].join("\n"),
    );
    expect(run.code).toBe(0);
    expect(readdirSync(run.dir)).toEqual(["shiro"]);
    expect(versionOf(join(run.dir, "shiro"))).toBe(`shiro ${VERSION} (bun ${Bun.version}, ${HOST!})\n`);
  }, 120_000);

  test("SHIRO_INSTALL_DIR on the PATH: no PATH advice; an installed shiro is replaced", async () => {
    const dir = bigTempDir("shiro-install-dir-");
    writeFileSync(join(dir, "shiro"), "#!/bin/sh\necho old\n");
    const run = await install(`${server.url}/good`, { env: { SHIRO_INSTALL_DIR: dir, PATH: `${dir}:${process.env.PATH}` } });
    expect(run.stdout.split("\n").at(-2)).toBe("shiro install: run: shiro --help");
    expect(run.code).toBe(0);
    expect(readdirSync(dir)).toEqual(["shiro"]);
    expect(versionOf(join(dir, "shiro"))).toStartWith(`shiro ${VERSION} `);
  }, 120_000);

  test.skipIf(!HOST_BASELINE)("an x86-64 CPU without AVX2 gets the baseline build", async () => {
    const cpuinfo = join(makeTempDir("shiro-install-cpu-"), "cpuinfo");
    writeFileSync(cpuinfo, "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr pae sse sse2 ssse3 sse4_1 sse4_2 avx\n");
    const run = await install(`${server.url}/good`, { env: { SHIRO_INSTALL_CPUINFO: cpuinfo } });
    expect(run.stdout).toContain(`downloading ${fileOf(HOST_BASELINE!)}\n`);
    expect(run.code).toBe(0);
    expect(versionOf(join(run.dir, "shiro"))).toBe(`shiro ${VERSION} (bun ${Bun.version}, linux-x64-baseline)\n`);
  }, 120_000);

  test("a tampered build is refused in one line; nothing is installed and the shiro already there is kept", async () => {
    const dir = bigTempDir("shiro-install-dir-");
    writeFileSync(join(dir, "shiro"), "#!/bin/sh\necho old\n");
    const run = await install(`${server.url}/tampered`, { env: { SHIRO_INSTALL_DIR: dir } });
    expect(run.stderr).toMatch(
      new RegExp(`^shiro install: checksum mismatch for ${fileOf(HOST!)} \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): the download is damaged or was tampered with, so nothing was installed; run this again, and report it if it repeats\\.\\n$`),
    );
    expect(run.code).toBe(1);
    expect(readdirSync(dir)).toEqual(["shiro"]);
    expect(readFileSync(join(dir, "shiro"), "utf8")).toBe("#!/bin/sh\necho old\n");
  }, 120_000);

  test("a release without this machine's build is refused in one line", async () => {
    const run = await install(`${server.url}/no-build`);
    expect(run.stderr).toBe(
      `shiro install: the release at ${server.url}/no-build has no build for ${HOST!}: see https://github.com/shiro-neko/shiro/releases for the builds there are, or build from source with Bun (see docs/install.md).\n`,
    );
    expect(run.code).toBe(1);
    expect(existsSync(join(run.home, ".local"))).toBe(false);
  }, 60_000);

  test("no server to download from: one line about the network", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/gone`;
    closed.stop(true);
    const run = await install(url);
    expect(run.stderr).toMatch(/^shiro install: could not download \S+\/gone\/SHA256SUMS \(\(7\) Failed to connect to 127\.0\.0\.1 port \d+.*\): check the network connection \(or SHIRO_VERSION \/ SHIRO_INSTALL_BASE\) and run this again\.\n$/);
    expect(run.code).toBe(1);
  }, 60_000);

  test("an install folder that cannot be written: one line saying to choose another with SHIRO_INSTALL_DIR", async () => {
    const top = makeTempDir("shiro-install-ro-");
    // Root may write anywhere, so for root the folder is one that cannot be made (a file stands in its path).
    let dir: string;
    if (process.getuid?.() === 0) {
      writeFileSync(join(top, "file"), "");
      dir = join(top, "file", "bin");
    } else {
      dir = join(top, "ro");
      mkdirSync(dir, { mode: 0o555 });
    }
    const run = await install(`${server.url}/good`, { env: { SHIRO_INSTALL_DIR: dir } });
    expect(run.stderr).toMatch(new RegExp(`^shiro install: (cannot create ${dir}|${dir} is not writable): choose a folder you can write to with SHIRO_INSTALL_DIR=<folder>.* and run this again\\.\\n$`));
    expect(run.code).toBe(1);
  }, 120_000);

  test("systems without a build are refused in one line each: another OS, another CPU, musl, Windows", async () => {
    const uname = (s: string, m: string) => `case "$1" in -s) echo ${s} ;; -m) echo ${m} ;; *) echo ${s} ;; esac`;
    const freebsd = await install(`${server.url}/good`, { fake: { uname: uname("FreeBSD", "amd64") } });
    expect(freebsd.stderr).toBe("shiro install: there is no shiro build for FreeBSD (amd64): the builds are for Linux and macOS (x64, arm64) and Windows x64; build from source with Bun (see docs/install.md).\n");
    expect(freebsd.code).toBe(1);
    const riscv = await install(`${server.url}/good`, { fake: { uname: uname("Linux", "riscv64") } });
    expect(riscv.stderr).toBe("shiro install: there is no shiro build for linux on riscv64: the builds are for x64 and arm64; build from source with Bun (see docs/install.md).\n");
    const musl = await install(`${server.url}/good`, { fake: { uname: uname("Linux", "x86_64"), ldd: 'echo "musl libc (x86_64)" >&2; exit 1' } });
    expect(musl.stderr).toBe("shiro install: this Linux uses musl libc (Alpine?), and shiro's Linux builds need glibc: use a glibc distribution (Debian, Ubuntu, Fedora…) or build from source with Bun.\n");
    expect(musl.code).toBe(1);
    const windows = await install(`${server.url}/good`, { fake: { uname: uname("MINGW64_NT-10.0", "x86_64") } });
    expect(windows.stderr).toStartWith("shiro install: on Windows, download shiro-<version>-windows-x64.exe from https://github.com/shiro-neko/shiro/releases");
    for (const run of [freebsd, riscv, musl, windows]) expect(existsSync(join(run.home, ".local"))).toBe(false);
  }, 120_000);
});
