import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitTool } from "../../lib/tools/git.ts";
import { subjectOf, subjectPaths } from "../../lib/tools/define.ts";
import { defaultDecision } from "../../lib/permissions/defaults.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
const git = (...args: string[]) => {
  const run = Bun.spawnSync(["git", ...args], { cwd: ws.root, env: { PATH: process.env.PATH!, HOME: ws.root, GIT_CONFIG_NOSYSTEM: "1" } });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
};

beforeEach(() => {
  ws = makeWorkspace();
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Ada");
  git("config", "user.email", "ada@example.com");
  ws.write({ "src/a.ts": "one\ntwo\nthree\n", "README.md": "# r\n", ".env": "SECRET=hunter2\n" });
  git("add", ".");
  git("commit", "-qm", "first commit");
  ws.write({ "src/a.ts": "one\nTWO\nthree\n" });
  git("commit", "-qam", "second: shout two");
});
afterEach(() => ws.cleanup());

const run = (op: string, input: Record<string, unknown> = {}) => runTool(gitTool, { op, ...input }, ws.ctx);
/** Files the hostile config would create if git ran one of its programs. */
const pwned = () => readdirSync(ws.root).filter((name) => name.startsWith("PWNED"));

describe("the git tool in a scratch repository", () => {
  test("status: branch, changed and untracked files; clean says so", async () => {
    expect((await run("status")).output).toBe("## main\nNothing to commit: the working tree is clean.");
    ws.write({ "src/a.ts": "changed\n", "new.txt": "n\n" });
    const result = await run("status");
    expect(result.output).toBe("## main\n M src/a.ts\n?? new.txt");
    expect(result.summary).toBe("2 changed");
  });

  test("diff: unstaged, staged, one path; secrets files are left out of a whole-tree diff", async () => {
    ws.write({ "src/a.ts": "one\nTWO\n3\n", ".env": "SECRET=changed\n" });
    const diff = await run("diff");
    expect(diff.output).toContain("-three\n+3");
    expect(diff.output).not.toContain("SECRET");
    expect(diff.summary).toBe("+1 -1");
    expect((await run("diff", { staged: true })).output).toBe("No staged changes.");
    git("add", "src/a.ts");
    expect((await run("diff", { staged: true, path: "src" })).output).toContain("+3");
    expect(await errorOf(run("diff", { path: ".env" }))).toContain(".env is a secrets file");
  });

  test("log: newest first, limited, by path", async () => {
    const log = await run("log");
    expect(log.output).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d Ada: second: shout two\n[0-9a-f]{7,} \d{4}-\d\d-\d\d Ada: first commit$/);
    expect((await run("log", { limit: 1 })).summary).toBe("1 commit");
    expect((await run("log", { path: "README.md" })).output).toContain("first commit");
    expect((await run("log", { path: "README.md" })).output).not.toContain("second");
  });

  test("show: a commit's message and diff; only commits, never a file past the secrets rule", async () => {
    const show = await run("show", { ref: "HEAD" });
    expect(show.output).toContain("second: shout two");
    expect(show.output).toContain("-two\n+TWO");
    const first = await run("show", { ref: "HEAD~1" });
    expect(first.output).toContain("README.md");
    expect(first.output).not.toContain("hunter2");
    expect(await errorOf(run("show", { ref: "HEAD:.env" }))).toContain('"HEAD:.env" is not a revision');
    const blob = git("rev-parse", "HEAD:.env").trim();
    expect((await run("show", { ref: blob })).output).toContain("is not a commit here");
    expect(await errorOf(run("show", { ref: "HEAD", path: ".env" }))).toContain("secrets file");
  });

  test("blame: who changed each line, with a line range", async () => {
    const blame = await run("blame", { path: "src/a.ts", startLine: 2, endLine: 3 });
    expect(blame.output.split("\n")).toHaveLength(2);
    expect(blame.output).toMatch(/Ada \d{4}-\d\d-\d\d +2\) TWO/);
    expect(await errorOf(run("blame", { path: ".env" }))).toContain("secrets file");
  });

  test("arguments are never a shell or an option: injection attempts create nothing", async () => {
    await run("status", { path: "; touch pwned" });
    await run("diff", { path: "$(touch pwned2)" });
    await run("log", { path: "`touch pwned3`" });
    expect(await errorOf(run("show", { ref: "--output=pwned4" }))).toContain("is not a revision");
    expect(await errorOf(run("show", { ref: "HEAD; touch pwned5" }))).toContain("is not a revision");
    expect(await errorOf(run("blame", { path: "--output=pwned6" }))).toContain("git said");
    expect(readdirSync(ws.root).filter((n) => n.startsWith("pwned"))).toEqual([]);
    expect(await errorOf(run("diff", { path: "../../etc/passwd" }))).toContain("outside the workspace");
  });

  test("a hostile repository config runs none of its programs", async () => {
    const hook = join(ws.root, "hook.sh");
    writeFileSync(hook, `#!/bin/sh\ntouch "${ws.root}/PWNED-$1"\n`);
    chmodSync(hook, 0o755);
    git("config", "core.fsmonitor", hook);
    git("config", "diff.external", `${hook} ext`);
    git("config", "core.pager", `${hook} pager`);
    git("config", "filter.evil.clean", `${hook} clean`);
    git("config", "diff.evil.textconv", `${hook} textconv`);
    git("config", "log.showSignature", "true");
    git("config", "gpg.program", `${hook} gpg`);
    writeFileSync(join(ws.root, ".gitattributes"), "*.ts filter=evil diff=evil\n");
    ws.write({ "src/a.ts": "tampered\n" });
    // Plain git in this repository runs them (so the check below means something)…
    git("diff", "--stat");
    expect(pwned().length).toBeGreaterThan(0);
    for (const name of pwned()) rmSync(join(ws.root, name));
    // …the tools do not.
    await run("status");
    await run("diff");
    await run("log");
    await run("show");
    await run("blame", { path: "src/a.ts" });
    expect(pwned()).toEqual([]);
  });

  test("blame needs a file; an unknown operation is refused with the choices", async () => {
    expect(await errorOf(run("blame"))).toBe("git blame: give the file to annotate in path.");
    const unknown = await errorOf(run("push"));
    expect(unknown).toContain("git: invalid arguments");
    expect(unknown).toContain('"status" | "diff" | "log" | "show" | "blame"');
  });

  test("permissions judge the path, whatever the operation: a secrets file is denied before any rule; the screen shows the operation", () => {
    expect(subjectPaths(gitTool, { op: "show", ref: "HEAD~2" })).toEqual(["."]);
    expect(subjectPaths(gitTool, { op: "log", path: "src" })).toEqual(["src"]);
    expect(subjectOf(gitTool, { op: "show", ref: "HEAD~2" })).toBe("show HEAD~2");
    expect(subjectOf(gitTool, { op: "diff", staged: true, path: "src" })).toBe("diff staged src");
    expect(subjectOf(gitTool, { op: "blame", path: "a.ts", startLine: 3 })).toBe("blame a.ts lines 3-end");
    expect(defaultDecision(gitTool, "src/a.ts")).toBe("allow");
    expect(defaultDecision(gitTool, ".env")).toBe("deny");
  });

  test("outside a repository the message is clear", async () => {
    rmSync(join(ws.root, ".git"), { recursive: true, force: true });
    expect(await errorOf(run("status"))).toBe(
      `git status: ${ws.root} is not inside a git repository, so there is no git history to read. Use list_dir, glob and read_file instead.`,
    );
  });

  test("it stays offered to read-only agents and needs no approval", () => {
    const names = toolsFor({ notebook: createNotebook(), readOnly: true }).map((t) => t.name);
    expect(names).toContain("git");
    expect(gitTool.mutates).toBe(false);
    expect(gitTool.defaultDecision).toBe("allow");
    expect(existsSync(ws.path("src/a.ts"))).toBe(true);
  });
});
