// Nothing a sandboxed command leaves can make git run a program later, on this machine, outside
// the sandbox: each route an injected model would take, through the binary, in `--yolo` and in
// `--mode auto`, then git run on the host (status, log, diff, commit, in every folder the routes
// made) must not create the marker file. git itself stays usable in the sandbox.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runShiro } from "../support/cli.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";
import type { FakeServer } from "../support/fake-openai.ts";
import { KEYS, usePty } from "../repl/pty.ts";
import { reportSkip, sandboxUnavailable, siblingLayout } from "./support.ts";

const { serve, start } = usePty();
const unavailable = sandboxUnavailable();
reportSkip("spec/sandbox/git-planting.test.ts", unavailable);
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const MODES = ["--yolo", "--mode auto"] as const;
type Mode = (typeof MODES)[number];
const DONE = "all done, nothing else";

/**
 * The scripted turn, run headless with `--yolo`, or in the interactive loop (`--mode auto`, or
 * `--yolo` when `beforeExit` must happen between the turn's end and shiro's exit) with every
 * question (an approval, the offer to run once outside the sandbox) answered no; shiro then
 * exits, so its last check has run. Returns every request the model got, as text.
 */
async function plant(mode: Mode, s: FakeServer, cwd: string, home: string, beforeExit?: () => Promise<void>): Promise<string> {
  // Headless, shiro exits as the turn ends: a wait before its exit needs the loop, in either mode.
  if (mode === "--yolo" && !beforeExit) {
    const run = await runShiro(["-p", "plant", "--yolo"], { baseURL: s.url, cwd, home, timeoutMs: 60_000, env: SANDBOX_AS_THE_HOST_HAS_IT });
    if (process.env.DEBUG_SPEC) console.error(run.stderr);
    expect(run.code).toBe(0);
  } else {
    // --no-memory: leaving the loop after this much work would otherwise ask the model for notes to remember.
    const pty = await start({ baseURL: s.url, cwd, home, args: [...mode.split(" "), "--no-memory"], env: SANDBOX_AS_THE_HOST_HAS_IT });
    await pty.waitForPrompt(1);
    pty.line("plant");
    const asking = () => /^(allow\?|run it once outside)/.test(pty.cursorLine());
    for (;;) {
      await pty.waitUntil("a question or the end of the turn", () => asking() || pty.screen().includes(DONE), 60_000);
      if (!asking()) break;
      pty.write("n");
      await pty.waitUntil("the answer taken", () => !asking());
    }
    await pty.waitForPrompt(2);
    await beforeExit?.();
    pty.write(KEYS.ctrlD);
    await pty.exited;
  }
  return s.requests.map((request) => JSON.stringify(request.body)).join("\n");
}

/** A workspace that is a git repository with one commit, a home, and a folder for the markers, outside the workspace. */
function layout(init: "repo" | "none") {
  const { top, home, cwd } = siblingLayout("shiro-git-plant-");
  made.push(top);
  const marks = join(top, "marks");
  mkdirSync(marks);
  const env = { PATH: process.env.PATH!, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "u", GIT_AUTHOR_EMAIL: "u@x", GIT_COMMITTER_NAME: "u", GIT_COMMITTER_EMAIL: "u@x" };
  const host = (script: string, dir = cwd) => Bun.spawnSync(["bash", "-c", script], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  if (init === "repo") host("git init -q -b main && echo one > a.txt && git add a.txt && git commit -q -m first");
  return { home, cwd, marks, host };
}

/** A program that leaves `marks/<name>` when it runs, as a git config value. */
const mark = (marks: string, name: string) => `touch ${join(marks, name)}; false`;

/** What you would run on this machine afterwards, in `dirs` (relative to the workspace), ignoring git's own errors. */
function useGitOnHost(host: ReturnType<typeof layout>["host"], cwd: string, dirs: readonly string[]) {
  for (const dir of dirs) {
    if (!existsSync(join(cwd, dir))) continue;
    host("git status; git log -1; git diff; echo x >> host.txt; git add host.txt; git commit -q -m host; git status", join(cwd, dir));
  }
}

const bash = (command: string) => ({ toolCalls: [{ name: "bash", input: { command } }] });
let routeCount = 0;
/**
 * An attack route as a script the model writes (write_file) and then runs (`sh <file>`): the guard
 * cannot read a script file, so what stops the route is the sandbox, whatever the guard refuses.
 */
const route = (script: string) => {
  const file = `.route-${++routeCount}.sh`;
  return [{ toolCalls: [{ name: "write_file", input: { path: file, content: `${script}\n` } }] }, bash(`sh ${file}`)];
};

describe.skipIf(unavailable !== undefined)("nothing planted in git", () => {
  for (const mode of MODES) {
    test(`${mode}: config, hooks, a renamed .git, gitdir files, nested repositories, worktrees and attributes run nothing later`, async () => {
      const { home, cwd, marks, host } = layout("repo");
      const fsmonitor = (name: string) => `printf '[core]\\n\\tfsmonitor = "${mark(marks, name)}"\\n'`;
      const hook = (name: string) => `printf '#!/bin/sh\\ntouch ${join(marks, name)}\\n'`;
      const routes = [
        // planted after the command returned, by a process it left running
        `(sleep 0.3; mkdir late && git -C late init -q && ${hook("late")} > late/.git/hooks/pre-commit && chmod +x late/.git/hooks/pre-commit) >/dev/null 2>&1 &`,
        // a copied .git put in place of the real one
        `cp -a .git .git2 && ${fsmonitor("renamed")} >> .git2/config && mv .git .git-old && mv .git2 .git`,
        // the repository's own config and hooks
        `git config core.fsmonitor "${mark(marks, "config")}"`,
        `${hook("hook")} > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`,
        // a worktree config, a linked worktree of its own, attributes that pick a filter
        `${fsmonitor("worktree-config")} > .git/config.worktree`,
        `mkdir -p .git/worktrees/w/common && cp -a .git/objects .git/refs .git/HEAD .git/worktrees/w/common/ && ${fsmonitor("linked-worktree")} > .git/worktrees/w/common/config && echo common > .git/worktrees/w/commondir && echo ref: refs/heads/main > .git/worktrees/w/HEAD && cp .git/index .git/worktrees/w/ && mkdir w && cp a.txt w/ && echo "gitdir: $PWD/.git/worktrees/w" > w/.git`,
        `mkdir -p .git/info && echo '* filter=x' > .git/info/attributes`,
        // a nested repository the root's index points at (git status visits it), and one of its own
        `mkdir sub && git -C sub init -q && git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m s && git add sub && ${fsmonitor("gitlink")} >> sub/.git/config`,
        `mkdir deep && git -C deep init -q && ${hook("nested-hook")} > deep/.git/hooks/post-commit && chmod +x deep/.git/hooks/post-commit`,
        // a .git file pointing at a repository the command made, and a bare-looking folder
        `git init -q --bare evil.git && git -C evil.git config core.bare false && ${fsmonitor("gitdir-file")} >> evil.git/config && mkdir pointed && echo "gitdir: ../evil.git" > pointed/.git`,

      ];
      const s = await serve(
        ...routes.flatMap(route),
        bash("echo made > made.txt && git add made.txt && git -c user.name=m -c user.email=m@x commit -q -m 'made in the sandbox' && git log --oneline -1"),
        { text: DONE },
      );
      const told = await plant(mode, s, cwd, home);
      await Bun.sleep(1500); // the late planter had its chance; shiro's exit check came after the sandbox stopped
      useGitOnHost(host, cwd, [".", "sub", "deep", "w", "pointed", "evil.git", "late", ".git-old", ".git2"]);
      expect(readdirSync(marks)).toEqual([]);
      // git kept working in the sandbox: the commit is in the repository the host sees.
      expect(host("git log --format=%s").stdout.toString()).toContain("made in the sandbox");
      // The model was told what was blocked.
      expect(told).toContain("blocked-by-shiro");
    }, 90_000);

    test(`${mode}: what a process left running plants after the last command is blocked as shiro exits`, async () => {
      const { home, cwd, marks, host } = layout("repo");
      const plan = `(sleep 0.5; mkdir late && git -C late init -q && printf '#!/bin/sh\\ntouch ${join(marks, "at-exit")}\\n' > late/.git/hooks/pre-commit && chmod +x late/.git/hooks/pre-commit; touch ${join(cwd, "planted")}) >/dev/null 2>&1 &`;
      const s = await serve(...route(plan), { text: DONE });
      await plant(mode, s, cwd, home, () => Bun.sleep(1000));
      expect(existsSync(join(cwd, "planted"))).toBe(true); // it did run to the end inside the sandbox
      useGitOnHost(host, cwd, ["late"]);
      expect(readdirSync(marks)).toEqual([]);
    }, 60_000);

    test(`${mode}: a linked worktree whose repository, and a sibling checkout, are opened with sandboxWritable commit, and plant nothing there`, async () => {
      const { home, cwd, marks, host } = layout("none");
      const main = join(cwd, "..", "main");
      const sibling = join(cwd, "..", "sibling");
      host(`git init -q -b main ${main} && git -C ${main} commit -q --allow-empty -m first && git -C ${main} worktree add -q ${cwd}/wt`);
      host(`git init -q ${sibling} && git -C ${sibling} commit -q --allow-empty -m first`);
      const wt = join(cwd, "wt");
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ sandboxWritable: [join(main, ".git"), "../../sibling"] }));
      const fsmonitor = (name: string) => `printf '[core]\\n\\tfsmonitor = "${mark(marks, name)}"\\n'`;
      const routes = [
        `git config core.fsmonitor "${mark(marks, "main-config")}"; ${fsmonitor("main-worktree-config")} > ${main}/.git/worktrees/wt/config.worktree`,
        `printf 'gitdir: ${cwd}/g\\n' > .git; mv .git .git-old`,
        `git -C ${sibling} config core.fsmonitor "${mark(marks, "sibling-config")}"; printf '#!/bin/sh\\ntouch ${join(marks, "sibling-hook")}\\n' > ${sibling}/.git/hooks/pre-commit; chmod +x ${sibling}/.git/hooks/pre-commit`,
        `git -c user.name=m -c user.email=m@x commit -q --allow-empty -m 'made in the sandbox' && git -C ${sibling} -c user.name=m -c user.email=m@x commit -q --allow-empty -m 'made in the sandbox'`,
      ];
      const s = await serve(...routes.flatMap(route), { text: DONE });
      await plant(mode, s, wt, home);
      useGitOnHost(host, cwd, ["wt", "../sibling"]);
      expect(host("git log --format=%s", sibling).stdout.toString()).toContain("made in the sandbox");
      host(`git -C ${main} status`);
      expect(readdirSync(marks)).toEqual([]);
      expect(host("git log --format=%s", wt).stdout.toString()).toContain("made in the sandbox");
      expect(readFileSync(join(wt, ".git"), "utf8")).toContain(join(main, ".git", "worktrees", "wt"));
    }, 60_000);

    test(`${mode}: commondir cannot move the configuration to a folder the command wrote`, async () => {
      const { home, cwd, marks, host } = layout("repo");
      const plan = `mkdir -p .git/c && cp -a .git/objects .git/refs .git/HEAD .git/c/ && printf '[core]\\n\\tfsmonitor = "${mark(marks, "commondir")}"\\n' > .git/c/config && echo c > .git/commondir`;
      const s = await serve(...route(plan), bash("git status --short"), { text: DONE });
      const told = await plant(mode, s, cwd, home);
      useGitOnHost(host, cwd, ["."]);
      expect(readdirSync(marks)).toEqual([]);
      expect(existsSync(join(cwd, ".git", "commondir"))).toBe(false);
      expect(told).toContain("shiro: .git/commondir appeared, and git reads it as configuration");
    }, 60_000);

    test(`${mode}: a hooks folder, included config files and a nested repository there at the start stay read-only, and an included file that appears is blocked`, async () => {
      const { home, cwd, marks, host } = layout("repo");
      mkdirSync(join(cwd, ".githooks"));
      writeFileSync(join(cwd, "team.gitconfig"), "[user]\n\tname = team\n");
      host("git config core.hooksPath .githooks && git config include.path ../team.gitconfig && git config --add include.path ../later.gitconfig");
      host("mkdir vendor && git -C vendor init -q && git -C vendor commit -q --allow-empty -m v");
      const routes = [
        `git -C vendor config core.fsmonitor "${mark(marks, "nested-config")}"; printf '#!/bin/sh\\ntouch ${join(marks, "nested-hook")}\\n' > vendor/.git/hooks/pre-commit; chmod +x vendor/.git/hooks/pre-commit`,
        `cp -a vendor/.git vendor/g2 && printf '[core]\\n\\tfsmonitor = "${mark(marks, "nested-swapped")}"\\n' >> vendor/g2/config && mv vendor/.git vendor/.git-old && mv vendor/g2 vendor/.git`,
        `printf '#!/bin/sh\\ntouch ${join(marks, "hooks-path")}\\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit`,
        `printf '[core]\\n\\tfsmonitor = "${mark(marks, "include")}"\\n' >> team.gitconfig`,
        `printf '[core]\\n\\tfsmonitor = "${mark(marks, "include-later")}"\\n' > later.gitconfig`,
      ];
      const s = await serve(...routes.flatMap(route), { text: DONE });
      await plant(mode, s, cwd, home);
      useGitOnHost(host, cwd, [".", "vendor", "vendor/g2"]);
      expect(readdirSync(marks)).toEqual([]);
      expect(readFileSync(join(cwd, "team.gitconfig"), "utf8")).not.toContain("fsmonitor");
    }, 60_000);

    test(`${mode}: in a folder that is no repository, a repository the command makes may not carry a hook; a plain one is kept`, async () => {
      const { home, cwd, marks, host } = layout("none");
      const routes = [
        `git init -q plain && git -C plain -c user.name=a -c user.email=a@b commit -q --allow-empty -m p && git -C plain remote add origin https://example.com/x.git`,
        `git init -q && printf '#!/bin/sh\\ntouch ${join(marks, "new-repo-hook")}\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
      ];
      const s = await serve(...routes.flatMap(route), { text: DONE });
      await plant(mode, s, cwd, home);
      useGitOnHost(host, cwd, [".", "plain"]);
      expect(readdirSync(marks)).toEqual([]);
      expect(existsSync(join(cwd, "plain", ".git", "config"))).toBe(true);
    }, 60_000);
  }
});
