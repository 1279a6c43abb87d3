// The sandbox itself, with the real bubblewrap: what a command sees, keeps and cannot reach. Every
// canary and sentinel lives in this test's temp dir.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findSecretsFiles, openCommands, type Commands } from "../../lib/sandbox/index.ts";
import { bwrapArgs } from "../../lib/sandbox/profile.ts";
import { sandboxFailure } from "../../lib/sandbox/failure.ts";
import { childEnv } from "../../lib/sandbox/child-env.ts";
import { findHelper } from "../../lib/sandbox/helpers.ts";
import { reportSkip, sandboxUnavailable, visibleTempDir } from "./support.ts";

const unavailable = sandboxUnavailable();
reportSkip("spec/sandbox/sandbox.test.ts", unavailable);
const KEY = "sk-live-sandbox-canary-0123456789";

function world() {
  const top = visibleTempDir("shiro-sandbox-spec-");
  made.push(top);
  const home = join(top, "home");
  const root = join(top, "ws");
  const sibling = join(top, "sibling");
  for (const dir of [home, root, sibling, join(home, ".ssh"), join(home, ".aws"), join(home, ".shiro-neko"), join(root, "src")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "SSH-CANARY");
  writeFileSync(join(home, ".aws", "credentials"), "AWS-CANARY");
  writeFileSync(join(home, ".netrc"), "NETRC-CANARY");
  writeFileSync(join(home, ".shiro-neko", "config.json"), "SHIRO-HOME-CANARY");
  writeFileSync(join(root, ".env"), "ENV-CANARY");
  writeFileSync(join(root, "src", "server.pem"), "PEM-CANARY");
  writeFileSync(join(root, ".env.example"), "NAME=");
  writeFileSync(join(sibling, "sentinel"), "SENTINEL");
  return { top, home, root, sibling };
}

const opened: Commands[] = [];
const made: string[] = [];
afterAll(() => {
  opened.forEach((c) => c.runner.close());
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function open(w: ReturnType<typeof world>, settings: Partial<Parameters<typeof openCommands>[0]["settings"]> = {}): Commands {
  const commands = openCommands({
    settings: { mode: "on", network: true, writable: [], readable: [], ...settings },
    root: w.root,
    shiroHome: join(w.home, ".shiro-neko"),
    env: { PATH: process.env.PATH, HOME: w.home, OPENAI_API_KEY: KEY, MY_COPY: `x${KEY}y`, SHIRO_API_KEY: KEY },
    apiKey: KEY,
  });
  opened.push(commands);
  return commands;
}

async function run(commands: Commands, script: string, cwd: string, runner = commands.runner) {
  const child = runner.spawn([commands.helper("bash")!, "-c", script], { cwd });
  const [stdout, stderr, exit] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, output: stdout + stderr, exit };
}

describe.skipIf(unavailable !== undefined)("the sandbox (bubblewrap)", () => {
  const w = world();
  const commands = open(w);

  test("is on, and says what it hides and masks", () => {
    expect(commands.status.state).toBe("on");
    if (commands.status.state !== "on") return;
    expect(commands.status.summary.hidden).toEqual(expect.arrayContaining([join(w.home, ".ssh"), join(w.home, ".aws"), join(w.home, ".netrc"), join(w.home, ".shiro-neko")]));
    expect(findSecretsFiles(w.root)).toEqual([join(w.root, ".env"), join(w.root, "src", "server.pem")]);
  });

  test("the workspace is writable, the rest read-only, $SHIRO_HOME and credentials hidden, secrets masked", async () => {
    const r = await run(commands, `echo made > made.txt; echo x > ${w.sibling}/sentinel; rm -rf ${w.sibling}; cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.netrc ~/.shiro-neko/config.json .env src/server.pem; cat .env.example`, w.root);
    expect(readFileSync(join(w.root, "made.txt"), "utf8")).toBe("made\n");
    expect(readFileSync(join(w.sibling, "sentinel"), "utf8")).toBe("SENTINEL");
    expect(r.output).not.toMatch(/CANARY=?[^=]|SSH-CANARY|AWS-CANARY|NETRC-CANARY|SHIRO-HOME-CANARY|ENV-CANARY|PEM-CANARY/);
    expect(r.output).toContain("Read-only file system");
    expect(r.stdout).toContain("NAME=");
  });

  test("no API key in the environment, whichever variable held it", async () => {
    const r = await run(commands, "env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'", w.root);
    expect(r.output).not.toContain(KEY);
    expect(r.output).toContain("TMPDIR=/tmp");
  });

  test("no process outside the sandbox is visible", async () => {
    const r = await run(commands, "ls /proc | grep -c '^[0-9]'", w.root);
    expect(Number(r.stdout.trim())).toBeLessThan(10);
    expect(r.output).not.toContain(String(process.pid) + "\n");
  });

  test("/tmp is private to the session and kept between commands, with a background server still running", async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    await run(commands, `echo kept > /tmp/note; (python3 -m http.server ${port} --bind 127.0.0.1 >/tmp/server.log 2>&1 &); sleep 0.1`, w.root);
    const r = await run(commands, `cat /tmp/note; for i in $(seq 50); do curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/ && break; sleep 0.1; done`, w.root);
    expect(r.stdout).toContain("kept");
    expect(r.stdout).toContain("200");
    expect(existsSync("/tmp/note") && readFileSync("/tmp/note", "utf8") === "kept\n").toBe(false);
  });

  test("stop() ends the command with everything it started", async () => {
    const child = commands.runner.spawn([commands.helper("bash")!, "-c", "sleep 30 & sleep 30"], { cwd: w.root });
    setTimeout(() => void child.stop(), 100);
    const started = Date.now();
    const [exit] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(exit.signal ?? String(exit.exitCode)).toMatch(/SIGTERM|SIGKILL|143|137/);
  });

  test("a sandbox's /tmp lives in this user's private folder, and those a dead shiro left there are removed", async () => {
    const parent = join(tmpdir(), `shiro-sandbox-${process.getuid!()}`);
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    const left = join(parent, "shiro-sandbox-tmp-999999999-1-LEFTXX");
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, "big.log"), "x");
    const fresh = open(world());
    const r = await run(fresh, "echo inside > /tmp/mine && cat /tmp/mine", w.root);
    expect(r.stdout).toBe("inside\n");
    expect(existsSync(left)).toBe(false);
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    // This process's own /tmp folders are there while their sandboxes run; one of them holds the file.
    const mine = readdirSync(parent).filter((name) => name.startsWith(`shiro-sandbox-tmp-${process.pid}-`));
    expect(mine.filter((name) => readdirSync(join(parent, name)).includes("mine"))).toHaveLength(1);
  });

  test("a sandbox that cannot start fails the command at once and says why, and stop() still returns", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(w.top, "no-such-tmp"); // the sandbox's /tmp folder cannot be made there
    try {
      const broken = open(world());
      broken.warm?.(); // the turn's early start fails quietly; the command says why
      const r = await run(broken, "echo never", w.root);
      expect(r.exit.exitCode).toBe(126);
      expect(r.stderr).toContain("shiro: the sandbox could not be started");
      expect(r.stdout).toBe("");
      const child = broken.runner.spawn([broken.helper("bash")!, "-c", "echo never"], { cwd: w.root });
      await child.stop();
      expect((await child.exited).exitCode).not.toBe(0);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  test("a new secrets file is masked from the next command on", async () => {
    writeFileSync(join(w.root, ".env.local"), "LOCAL-CANARY");
    const r = await run(commands, "cat .env.local", w.root);
    expect(r.output).not.toContain("LOCAL-CANARY");
    expect(r.output).toContain("restarted the sandbox");
  });

  test("git run here executes no program from the repository's config, and no command can plant one", async () => {
    const git = findHelper("git", { path: process.env.PATH, root: w.root });
    if (!git) return;
    const host = (script: string) => Bun.spawnSync(["bash", "-c", script], { cwd: w.root });
    // A hostile checkout, as shipped: written from outside the sandbox.
    host("git init -q && git config core.pager 'touch PAGER-RAN; cat' && git config core.fsmonitor 'touch FSMON-RAN' && git config alias.st '!touch ALIAS-RAN' && printf '#!/bin/sh\\ntouch HOOK-RAN\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit");
    const fresh = open(w); // .git/config exists now, so this sandbox keeps it read-only
    await run(fresh, "git status; git st; git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x; git log -1 | cat", w.root);
    for (const marker of ["PAGER-RAN", "FSMON-RAN", "ALIAS-RAN", "HOOK-RAN"]) expect(existsSync(join(w.root, marker)) ? marker : "").toBe("");
    const planted = await run(fresh, "git config core.fsmonitor 'touch PLANTED'; echo x > .git/hooks/post-checkout", w.root);
    expect(planted.output).toMatch(/Read-only file system|could not lock config file/);
    expect(readFileSync(join(w.root, ".git", "config"), "utf8")).not.toContain("PLANTED");
    expect(existsSync(join(w.root, ".git", "hooks", "post-checkout"))).toBe(false);
  });
});

describe.skipIf(unavailable !== undefined)("widening and narrowing the sandbox", () => {
  test("--no-network: no network, loopback still up", async () => {
    const w = world();
    const commands = open(w, { network: false });
    const r = await run(commands, "tail -n +3 /proc/net/dev | cut -d: -f1", w.root);
    expect(r.stdout.trim().split(/\s+/)).toEqual(["lo"]);
  });

  test("sandboxWritable opens a sibling checkout; sandboxReadable shows ~/.ssh", async () => {
    const w = world();
    const commands = open(w, { writable: ["../sibling"], readable: ["~/.ssh"] });
    const r = await run(commands, `echo changed > ${w.sibling}/sentinel; cat ~/.ssh/id_ed25519; cat ~/.aws/credentials`, w.root);
    expect(readFileSync(join(w.sibling, "sentinel"), "utf8")).toBe("changed\n");
    expect(r.output).toContain("SSH-CANARY");
    expect(r.output).not.toContain("AWS-CANARY");
  });

  test("a command the sandbox stopped runs once on the host runner, which still has no key", async () => {
    const w = world();
    const commands = open(w);
    const inside = await run(commands, `echo x > ${w.sibling}/sentinel`, w.root);
    expect(sandboxFailure(inside.output, inside.exit.exitCode, { network: true, hidden: [] })).toContain("read-only");
    const outside = await run(commands, `echo x > ${w.sibling}/sentinel; env`, w.root, commands.host);
    expect(readFileSync(join(w.sibling, "sentinel"), "utf8")).toBe("x\n");
    expect(outside.output).not.toContain(KEY);
  });
});

describe("without the sandbox", () => {
  test("mode off and a missing bubblewrap both run on this machine, and say which", () => {
    const w = world();
    const off = openCommands({ settings: { mode: "off", network: true, writable: [], readable: [] }, root: w.root, shiroHome: w.home, env: { PATH: process.env.PATH }, apiKey: undefined });
    expect(off.status).toEqual({ state: "off" });
    expect(off.runner.sandboxed).toBe(false);
    const missing = openCommands({ settings: { mode: "on", network: true, writable: [], readable: [] }, root: w.root, shiroHome: w.home, env: { PATH: process.env.PATH, SHIRO_BWRAP: "" }, apiKey: undefined });
    expect(missing.status).toMatchObject({ state: "unavailable", why: expect.stringContaining("not installed"), fix: expect.stringContaining("bubblewrap") });
    expect(missing.runner.sandboxed).toBe(false);
  });

  test("the key is still kept out of every child's environment", () => {
    const env = childEnv({ PATH: "/bin", OPENAI_API_KEY: KEY, OTHER: `a${KEY}`, SHIRO_API_KEY: "x", KEEP: "yes" }, KEY);
    expect(env).toEqual({ PATH: "/bin", KEEP: "yes" });
  });

  test("helpers come only from absolute PATH entries outside the workspace", () => {
    const w = world();
    const bin = join(w.root, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "rg"), "#!/bin/sh\necho planted\n", { mode: 0o755 });
    const found = findHelper("rg", { path: `node_modules/.bin:${bin}:${process.env.PATH}`, root: w.root });
    expect(found === undefined || !found.startsWith(w.root)).toBe(true);
  });
});

test("the profile: read-only root, private /tmp, hidden and masked paths in order, network off only when asked", () => {
  const kinds: Record<string, "dir" | "file"> = { "/w": "dir", "/h/.ssh": "dir", "/h/.netrc": "file", "/h/.cache": "dir", "/s": "dir", "/w/.env": "file" };
  const { args } = bwrapArgs({ root: "/w", home: "/h", shiroHome: "/s", tmp: "/t", network: false, writable: [], readable: [], secrets: ["/w/.env"], kindOf: (p) => kinds[p] });
  const text = args.join(" ");
  expect(text).toContain("--unshare-user --unshare-pid");
  expect(text).toContain("--unshare-net");
  expect(text).toContain("--ro-bind / / --dev /dev --proc /proc --bind /t /tmp");
  expect(text).toContain("--bind /h/.cache /h/.cache --bind /w /w --tmpfs /s --tmpfs /h/.ssh --ro-bind /dev/null /h/.netrc --ro-bind /dev/null /w/.env");
  expect(bwrapArgs({ root: "/w", home: "/h", shiroHome: "/s", tmp: "/t", network: true, writable: [], readable: [], secrets: [], kindOf: (p) => kinds[p] }).args).not.toContain("--unshare-net");
});

test("a home under /tmp is shown read-only on top of the private /tmp, its caches writable and its credentials hidden", () => {
  const kinds: Record<string, "dir" | "file"> = { "/w": "dir", "/tmp/h": "dir", "/tmp/h/.ssh": "dir", "/tmp/h/.cache": "dir" };
  const { args } = bwrapArgs({ root: "/w", home: "/tmp/h", shiroHome: "/s", tmp: "/t", network: true, writable: [], readable: [], secrets: [], kindOf: (p) => kinds[p] });
  expect(args.join(" ")).toContain("--bind /t /tmp --ro-bind /tmp/h /tmp/h --bind /tmp/h/.cache /tmp/h/.cache --bind /w /w --tmpfs /tmp/h/.ssh");
  // Not HOME=/tmp, nor a home that holds the session's /tmp folder: the host's /tmp would cover the private one.
  for (const [home, tmp] of [["/tmp", "/tmp/shiro-sandbox-0/s1"], ["/tmp/h", "/tmp/h/tmp/shiro-sandbox-0/s1"]] as const) {
    const only = bwrapArgs({ root: "/w", home, shiroHome: "/s", tmp, network: true, writable: [], readable: [], secrets: [], kindOf: (p) => (p === home ? "dir" : kinds[p]) });
    expect(only.args.join(" ")).not.toContain(`--ro-bind ${home} ${home}`);
  }
});
