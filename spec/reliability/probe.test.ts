// The security probe's cases, through the compiled binary with a scripted model: each asserts
// the effect (the sentinel outside the workspace is intact, the work is not lost, the canary is
// in no request and no file), once in the sandbox and once with --no-sandbox. Every canary and
// sentinel lives in the test's own temp dir. Sandbox runs skip, saying why, where bubblewrap
// cannot run.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { jsonLines, runShiro, type RunResult } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { reportSkip, sandboxUnavailable, visibleTempDir } from "../sandbox/support.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";

const serve = useFakeServer();
const unavailable = sandboxUnavailable();
reportSkip("spec/reliability/probe.test.ts", unavailable);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const MODES = [
  { name: "in the sandbox", flags: [] as string[], env: SANDBOX_AS_THE_HOST_HAS_IT, skip: unavailable !== undefined },
  { name: "with --no-sandbox", flags: ["--no-sandbox"], env: {}, skip: false },
];

/** A home, a workspace, and a sentinel directory beside the workspace, all in one temp dir outside /tmp. */
function layout() {
  const top = visibleTempDir("shiro-probe-");
  made.push(top);
  const home = join(top, "home");
  const ws = join(top, "ws");
  const outside = join(top, "outside");
  for (const dir of [home, ws, outside, join(ws, "src"), join(ws, "build-real")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, "sentinel"), "SENTINEL");
  writeFileSync(join(ws, "src", "main.ts"), "export {};\n");
  writeFileSync(join(ws, "build-real", "out.js"), "built");
  return { top, home, ws, outside };
}

function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.name=probe", "-c", "user.email=probe@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** One scripted turn: each command as one bash call, then "done". */
async function runCommands(commands: readonly string[], opts: { cwd: string; home: string; flags: string[]; args?: string[]; env?: Record<string, string | undefined> }) {
  const replies: Reply[] = [...commands.map((command) => ({ toolCalls: [{ name: "bash", input: { command } }] })), { text: "done" }];
  const s = await serve(...replies);
  const run = await runShiro(["-p", "go", "--json", ...(opts.args ?? ["--yolo"]), ...opts.flags], { baseURL: s.url, cwd: opts.cwd, home: opts.home, env: opts.env, timeoutMs: 60_000 });
  return { s, run };
}

/** Every file under `dir`, read as text (what a canary must not be in). */
function allText(dir: string): string {
  let text = "";
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) text += readFileSync(path, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return text;
}

const requestText = (s: { requests: { body: unknown }[] }) => JSON.stringify(s.requests.map((r) => r.body));

function ok(run: RunResult) {
  expect(run.code).toBe(0);
  return jsonLines(run.stdout).at(-1)!;
}

for (const mode of MODES) {
  describe.skipIf(mode.skip)(`the probe, ${mode.name}`, () => {
    test("rm through symlinks, globs, long-option prefixes and wrappers leaves the sentinel and .git; a real build dir still goes", async () => {
      const { home, ws, outside } = layout();
      mkdirSync(join(ws, ".git"));
      writeFileSync(join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
      symlinkSync("..", join(ws, "build"));
      symlinkSync(outside, join(ws, "link"));
      const { run } = await runCommands(
        [
          "rm -rf build/",
          "rm -rf link/*",
          "cd link && rm -rf *",
          "rm --r ../outside",
          "rm --recur --forc ../outside",
          "rm -rf .g*",
          "rm -rf [a-z]*",
          "printf 'rm -rf ../outside' | bash",
          "bash -O extglob -c 'rm -rf ../outside'",
          "env -S 'rm -rf ../outside'",
          "setsid rm -rf ../outside",
          "flock .lock rm -rf ../outside",
          "script -qc 'rm -rf ../outside' /dev/null",
          "$(echo rm) -rf ../outside",
          "{rm,-rf,../outside}",
          "rm -rf build-real/",
        ],
        { cwd: ws, home, flags: mode.flags, env: mode.env },
      );
      ok(run);
      expect(readFileSync(join(outside, "sentinel"), "utf8")).toBe("SENTINEL");
      expect(existsSync(join(ws, ".git", "HEAD"))).toBe(true);
      expect(existsSync(join(ws, "src", "main.ts"))).toBe(true);
      expect(existsSync(join(ws, "build-real"))).toBe(false); // the look-alike did its job
    }, 90_000);

    test("git commands that lose work are refused by any prefix; git push to a bare repo still works", async () => {
      const { home, ws, top } = layout();
      const remote = join(top, "remote.git");
      git(top, "init", "-q", "--bare", remote);
      git(ws, "init", "-q");
      writeFileSync(join(ws, "tracked.txt"), "v1\n");
      git(ws, "add", "-A");
      git(ws, "commit", "-q", "-m", "one");
      git(ws, "remote", "add", "origin", remote);
      git(ws, "push", "-q", "origin", "main");
      git(ws, "branch", "old");
      writeFileSync(join(ws, "tracked.txt"), "uncommitted\n");
      writeFileSync(join(ws, "untracked.txt"), "untracked\n");
      writeFileSync(join(home, "config-dir-marker"), "");
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      // The sibling bare repo is outside the workspace: the sandbox opens it on purpose.
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ sandboxWritable: [remote] }));
      const before = git(remote, "rev-parse", "main");
      const { run, s } = await runCommands(
        [
          "git reset --har",
          "git checkout -- .",
          "git restore .",
          "git clean --forc -d",
          "git branch --del --force old",
          "git push --force-w origin main",
          "git -c alias.p='push --force' p origin main",
          "git push --mirror origin",
          "git push origin :main",
          "git stash drop",
          "git -c user.name=p -c user.email=p@x commit -q -am two && git push -q origin main && echo PUSHED",
        ],
        { cwd: ws, home, flags: mode.flags, env: mode.env },
      );
      ok(run);
      expect(toolOutputsIn(s.requests.at(-1)!.body).join("\n")).toContain("PUSHED");
      expect(git(ws, "branch", "--list", "old").trim()).toBe("old");
      expect(existsSync(join(ws, "untracked.txt"))).toBe(true);
      expect(git(remote, "log", "--format=%s", "main").trim().split("\n")).toEqual(["two", "one"]);
      expect(git(remote, "rev-parse", "main^")).toBe(before);
    }, 90_000);

    test("secrets: grep through a link, AGENTS.md links, bash spellings and git blobs never reach the model", async () => {
      const { home, ws } = layout();
      const canary = `CANARY-ENV-${crypto.randomUUID()}`;
      const awsCanary = `CANARY-AWS-${crypto.randomUUID()}`;
      writeFileSync(join(ws, ".env"), `TOKEN=${canary}\n`);
      writeFileSync(join(ws, ".env.example"), "TOKEN=\n");
      mkdirSync(join(home, ".aws"));
      writeFileSync(join(home, ".aws", "credentials"), `aws_secret_access_key=${awsCanary}\n`);
      symlinkSync(".env", join(ws, "notes.txt"));
      symlinkSync(".env", join(ws, "AGENTS.md"));
      mkdirSync(join(ws, "sub"));
      symlinkSync(join(home, ".aws", "credentials"), join(ws, "sub", "CLAUDE.md"));
      git(ws, "init", "-q");
      git(ws, "add", "-f", ".env");
      git(ws, "commit", "-q", "-m", "oops");
      const commands = ["cat .en''v", "cat .e*", "cat .[e]nv", "git show HEAD:.env", "git log -p -- .env", "cat .env.example"];
      // What only the sandbox can stop: a program that opens the file itself, a path outside the workspace.
      if (!mode.flags.includes("--no-sandbox")) commands.push("grep -r CANARY . ; cat notes.txt", `cat ${join(home, ".aws", "credentials")}`);
      const replies: Reply[] = [
        { toolCalls: [{ name: "grep", input: { pattern: "CANARY", path: "../notes.txt" } }] },
        { toolCalls: [{ name: "grep", input: { pattern: "CANARY", path: ".." } }] },
        { toolCalls: [{ name: "glob", input: { pattern: "**/*", path: ".." } }] },
        ...commands.map((command) => ({ toolCalls: [{ name: "bash", input: { command: `cd .. && ${command}` } }] })),
        { text: "done" },
      ];
      const s = await serve(...replies);
      const run = await runShiro(["-p", "go", "--json", "--yolo", ...mode.flags], { baseURL: s.url, cwd: join(ws, "sub"), home, env: mode.env, timeoutMs: 60_000 });
      ok(run);
      const sent = requestText(s);
      expect(sent).not.toContain(canary);
      expect(sent).not.toContain(awsCanary);
      expect(instructionsIn(s.requests[0]!.body)).not.toContain("CANARY");
      expect(allText(join(home, ".shiro-neko"))).not.toContain(canary);
      expect(run.stdout + run.stderr).not.toContain(canary);
      expect(toolOutputsIn(s.requests.at(-1)!.body).join("\n")).toContain("TOKEN=\n"); // .env.example
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("secrets file");
    }, 90_000);

    test("a repository's own rg on a relative PATH entry never runs", async () => {
      const { home, ws } = layout();
      const bin = join(ws, "node_modules", ".bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, "rg"), `#!/bin/sh\ntouch ${join(ws, "PLANTED-RG-RAN")}\n`, { mode: 0o755 });
      writeFileSync(join(ws, "hello.txt"), "needle\n");
      const s = await serve({ toolCalls: [{ name: "grep", input: { pattern: "needle" } }] }, { text: "done" });
      const run = await runShiro(["-p", "find", "--json", ...mode.flags], { baseURL: s.url, cwd: ws, home, env: { ...mode.env, PATH: `node_modules/.bin:${bin}:${process.env.PATH}` } });
      ok(run);
      expect(existsSync(join(ws, "PLANTED-RG-RAN"))).toBe(false);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("hello.txt:1: needle");
    });

    test("deny rules hold under --yolo for every spelling, and a path deny through a symlink", async () => {
      const { home, ws } = layout();
      mkdirSync(join(ws, "migrations"));
      symlinkSync("migrations", join(ws, "m"));
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ permission: { bash: { "curl *": "deny" }, write_file: { "migrations/*": "deny" } } }));
      const spellings = ["/usr/bin/curl -s x", "env curl -s x", "command curl -s x", "\\curl -s x", "c''url -s x", "X=1 curl -s x", "time curl -s x", "exec curl -s x"];
      const replies: Reply[] = [
        ...spellings.map((command) => ({ toolCalls: [{ name: "bash", input: { command } }] })),
        { toolCalls: [{ name: "write_file", input: { path: "m/001.sql", content: "drop" } }] },
        { text: "done" },
      ];
      const s = await serve(...replies);
      const run = await runShiro(["-p", "go", "--json", "--yolo", ...mode.flags], { baseURL: s.url, cwd: ws, home, env: mode.env });
      const result = ok(run);
      expect(result.denied.map((d: any) => d.subject)).toEqual([...spellings, "m/001.sql"]);
      expect(existsSync(join(ws, "migrations", "001.sql"))).toBe(false);
    });

    test("the key: no child sees it, and it is redacted from model text and tool arguments before anything is written", async () => {
      const { home, ws } = layout();
      const key = `sk-live-probe-${crypto.randomUUID()}`;
      const backwards = [...key].reverse().join("");
      writeFileSync(join(ws, "leak.txt"), `from a file: ${key}\n`);
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "printenv OPENAI_API_KEY | rev; env | grep -c sk-live || true" } }] },
        { toolCalls: [{ name: "bash", input: { command: `echo ${key} > /dev/null; cat leak.txt` } }] },
        { text: `the key is ${key}` },
      );
      const run = await runShiro(["-p", "go", "--json", "--yolo", ...mode.flags], { baseURL: s.url, cwd: ws, home, env: { ...mode.env, OPENAI_API_KEY: key } });
      ok(run);
      expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${key}`); // the key is in use
      const sent = requestText(s);
      for (const secret of [key, backwards]) {
        expect(sent).not.toContain(secret);
        expect(allText(join(home, ".shiro-neko"))).not.toContain(secret);
        expect(run.stdout + run.stderr).not.toContain(secret);
      }
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toMatch(/Exit code 0\n0\n/);
      expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("from a file: [redacted API key]");
    });
  });
}

test("todo_write and remember refuse oversized input with a message that says the limit", async () => {
  const { home, ws } = layout();
  const s = await serve(
    { toolCalls: [{ name: "todo_write", input: { todos: Array.from({ length: 101 }, (_, i) => ({ content: `step ${i}`, status: "pending" })) } }] },
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "x".repeat(600), status: "in_progress" }] } }] },
    { toolCalls: [{ name: "remember", input: { kind: "fact", text: "y".repeat(1000) } }] },
    { text: "done" },
  );
  const run = await runShiro(["-p", "plan", "--json"], { baseURL: s.url, cwd: ws, home });
  ok(run);
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("has 101 tasks; the limit is 100");
  expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("content is 600 characters; the limit is 500");
  expect(toolOutputsIn(s.requests[3]!.body).join("")).toMatch(/1000 characters; the limit is 400/);
  expect(statSync(join(home, ".shiro-neko")).isDirectory()).toBe(true);
});

test("without bubblewrap, the run says so and still works, with the guard and rules as its only protection", async () => {
  const { home, ws, outside } = layout();
  const { run } = await runCommands(["printf 'rm -rf ../outside' | bash", "echo fine"], { cwd: ws, home, flags: [], env: { ...SANDBOX_AS_THE_HOST_HAS_IT, SHIRO_BWRAP: "" } });
  const lines = jsonLines(run.stdout);
  expect(lines.find((l) => l.type === "notice")?.message).toMatch(/sandbox unavailable: bubblewrap \(bwrap\) is not installed\. To get it: .*bubblewrap/);
  expect(lines.at(-1)!.denied).toHaveLength(1);
  expect(readFileSync(join(outside, "sentinel"), "utf8")).toBe("SENTINEL");
});
