// The check after each sandboxed command (lib/sandbox/git-check.ts), on its own: which git folders a
// command made are harmless and kept, which are moved out of git's way, and that moving one never
// reaches outside the workspace. The end-to-end routes are in git-planting.test.ts.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkGit } from "../../lib/sandbox/git-check.ts";
import { planGitShield } from "../../lib/sandbox/git-shield.ts";
import { scanWorkspace } from "../../lib/sandbox/secrets-scan.ts";
import { findHelper } from "../../lib/sandbox/helpers.ts";
import { tempDir } from "../support/cli.ts";

const git = findHelper("git", { path: process.env.PATH, root: "/nonexistent-workspace" });
const env = { PATH: process.env.PATH!, HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1" };
const sh = (script: string, cwd: string) => Bun.spawnSync(["bash", "-c", script], { cwd, env });

/** A workspace that is a repository, with the shield a sandbox starting now would have. */
function start() {
  const root = realpathSync(tempDir("shiro-git-check-"));
  sh("git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m first", root);
  const shield = planGitShield(root, scanWorkspace(root).git, { includes: [] });
  const check = () => checkGit(root, shield, scanWorkspace(root).git, git).map((b) => `${b.path.slice(root.length + 1)}: ${b.why}`);
  return { root, check };
}

describe.skipIf(!git)("the git check", () => {
  test("a repository a command makes is kept while it runs nothing: init, a network remote, a branch, a name", () => {
    const { root, check } = start();
    sh("git init -q lib && git -C lib remote add origin https://example.com/lib.git && git -C lib config user.name m && git -C lib config branch.main.remote origin", root);
    sh("git init -q --bare store.git", root);
    expect(check()).toEqual([]);
    expect(existsSync(join(root, "lib", ".git", "config"))).toBe(true);
  });

  test("one that names a program, a local remote (whose hooks a push runs), an include or a hook is moved aside", () => {
    const { root, check } = start();
    sh("git init -q a && git -C a config alias.st '!touch x'", root);
    sh("git init -q b && git -C b remote add origin ../store.git", root);
    sh("git init -q c && git -C c config include.path ../../c.gitconfig", root);
    sh("git init -q d && printf '#!/bin/sh\\n' > d/.git/hooks/post-checkout", root);
    sh("git init -q --bare e.git && git -C e.git config core.sshCommand 'touch x'", root);
    expect(check().sort()).toEqual([
      "a/.git: holds a config that sets alias.st",
      "b/.git: holds a config that sets remote.origin.url",
      "c/.git: holds a config that sets include.path",
      "d/.git: holds the hook post-checkout",
      "e.git: holds a config that sets core.sshcommand",
    ]);
    // Each loses its HEAD, so git no longer takes it for a repository; git in `a` finds the workspace's own.
    for (const dir of ["a/.git", "b/.git", "c/.git", "d/.git", "e.git"]) expect([existsSync(join(root, dir, "HEAD")), existsSync(join(root, dir, "HEAD.blocked-by-shiro"))]).toEqual([false, true]);
    expect(sh("git rev-parse --show-toplevel", join(root, "a")).stdout.toString().trim()).toBe(root);
    expect(check()).toEqual([]);
  });

  test("a rebase left with an exec line in its to-do list is moved aside; one without is kept", () => {
    const { root, check } = start();
    mkdirSync(join(root, ".git", "rebase-merge"));
    writeFileSync(join(root, ".git", "rebase-merge", "git-rebase-todo"), "pick 0000000 x\n");
    expect(check()).toEqual([]);
    writeFileSync(join(root, ".git", "rebase-merge", "git-rebase-todo"), "pick 0000000 x\nexec touch PWNED\n");
    expect(check()).toEqual([".git/rebase-merge: holds a to-do list with an exec line, which `git rebase --continue` would run"]);
    expect(existsSync(join(root, ".git", "rebase-merge.blocked-by-shiro"))).toBe(true);
  });

  test("a FIFO where git expects a file never stalls the check: it is moved aside", () => {
    const { root, check } = start();
    sh("git init -q n && rm n/.git/config && mkfifo n/.git/config && mkdir .git/rebase-merge && mkfifo .git/rebase-merge/git-rebase-todo", root);
    expect(check().sort()).toEqual([
      ".git/rebase-merge: holds a to-do list that is not a plain file",
      "n/.git: holds a config that is not a plain file",
    ]);
  });

  test("moving aside never follows a folder swapped for a symlink: a repository outside stays as it is", () => {
    const { root, check } = start();
    const outside = realpathSync(tempDir("shiro-git-outside-"));
    sh("git init -q && git config core.fsmonitor 'touch x'", outside);
    symlinkSync(outside, join(root, "sub"));
    const shield = planGitShield(root, [], { includes: [] });
    // As if the search had found sub/.git a moment before sub became a symlink.
    expect(checkGit(root, shield, [join(root, "sub", ".git")], git)).toEqual([]);
    expect(existsSync(join(outside, ".git", "config"))).toBe(true);
    expect(check()).toEqual([]);
  });
});
