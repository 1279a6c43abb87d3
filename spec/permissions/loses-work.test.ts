// Every git operation that loses work, in every spelling (options, plumbing, config, environment,
// refspecs), and find that deletes from the root or .git: refused by the guard, which has no
// sandbox switch. What keeps work passes.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardCommand } from "../../lib/permissions/guard.ts";
import { tempDir } from "../support/cli.ts";

const root = tempDir("shiro-loses-work-");
mkdirSync(join(root, ".git", "refs", "heads"), { recursive: true });
writeFileSync(join(root, ".git", "refs", "heads", "main"), "0".repeat(40) + "\n");
writeFileSync(join(root, ".git", "packed-refs"), `${"1".repeat(40)} refs/heads/old\n`);
mkdirSync(join(root, "src"));
const guard = (command: string) => guardCommand(command, { root, home: "/nonexistent-home" });

const REFUSED = [
  // the probe's list
  "git switch -f main",
  "git switch --discard-changes main",
  "git switch --force main",
  "git read-tree -u --reset HEAD",
  "git read-tree --reset HEAD",
  "git update-ref -d refs/heads/old",
  "git update-ref refs/heads/main HEAD~3",
  "git send-pack --force ../remote.git main",
  "git send-pack ../remote.git +main",
  "git config remote.origin.push '+refs/heads/*:refs/heads/*'",
  "git config --add remote.origin.push +main:main",
  "git config remote.origin.mirror true",
  "git config clean.requireForce false",
  "git -c remote.origin.push=+main:main push",
  "git -c clean.requireForce=false clean -d",
  "git --config-env remote.origin.push=SPEC push",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=+main:main git push",
  "export GIT_CONFIG_PARAMETERS=\"'remote.origin.push'='+main:main'\"; git push",
  "env GIT_CONFIG_PARAMETERS=x git push",
  "HOME=. git push origin",
  "env XDG_CONFIG_HOME=. git push origin",
  "export HOME=$PWD; git push origin",
  "git config core.pager 'rm -rf .'",
  // plumbing and porcelain that overwrite or delete
  "git checkout-index -f -a",
  "git reset --merge HEAD~1",
  "git reset --keep HEAD~1",
  "git clean -d",
  "git clean -fdx",
  "git stash drop",
  "git stash clear",
  "git branch -D old",
  "git branch -f old HEAD",
  "git branch -M main",
  "git checkout -B main",
  "git switch -C old",
  "git checkout -f",
  "git checkout -- .",
  "git restore .",
  "git rm -rf .",
  "git mv -f a b",
  "git worktree remove --force ../wt",
  "git gc --prune=now",
  "git prune",
  "git reflog expire --expire=now --all",
  "git reflog delete HEAD@{1}",
  "git submodule update --force",
  "git push --force-with-lease",
  "git push --mirror",
  "git push origin --delete old",
  "git push origin :old",
  "git fetch origin +main:main",
  "git fetch -f origin main:main",
  "git pull origin +main:main",
  // git's records written by hand, and a config written in the same line as a push
  "echo 0000 > .git/refs/heads/main",
  "cp other .git/packed-refs",
  "tee .git/HEAD < x",
  "printf '[remote \"origin\"]\\n\\tpush = +main:main\\n' >> .git/config && git push origin",
  "tee -a ~/.gitconfig < planted.txt; git push",
  // find
  "find .git -delete",
  "find . -delete",
  "find . -name '*.o' -delete",
  "find .git/objects -type f -exec rm {} +",
  "find . -exec rm -rf {} \\;",
  "find ../ -name x -delete",
  "find -delete",
  // scripts the guard cannot read
  "printf 'rm -rf .git' | bash",
  "echo 'git reset --hard' | sh",
  "$(echo rm) -rf .git",
  "cat cmds.txt | xargs -I{} sh -c '{}'",
  "echo 'rm -rf .git' | parallel",
  ". /dev/stdin <<< 'rm -rf .git'",
  "bash -c \"$(cat script.sh)\"",
  "eval \"$(cat script.sh)\"",
];

const PASSES = [
  "git status",
  "HOME=/tmp/h npm test",
  "git switch main",
  "git switch -c feature",
  "git switch -C brand-new",
  "git checkout -B brand-new",
  "git branch -M brand-new",
  "git read-tree HEAD",
  "git config user.name Me",
  "git config --get remote.origin.push",
  "git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'",
  "git -c user.name=x commit -m msg",
  "git fetch origin",
  "git fetch origin +refs/heads/*:refs/remotes/origin/*",
  "git pull --rebase origin main",
  "git push origin main",
  "git clean -n",
  "git reset --soft HEAD~1",
  "git gc",
  "git reflog",
  "git stash list",
  "git rm --cached -f secret.txt",
  "git worktree remove ../wt",
  "find src -name '*.o' -delete",
  "find src -type f -exec rm {} +",
  "find . -name '*.ts'",
  "find . -exec grep -l x {} +",
  "echo build/ >> .git/info/exclude",
  "printf '[user]\\n\\tname = me\\n' >> .git/config && git push origin main",
  "cat .git/config > copy.txt",
];

describe("the guard refuses what loses work", () => {
  test.each(REFUSED)("refused: %p", (command) => {
    expect(guard(command)?.why ?? "NOT REFUSED").not.toBe("NOT REFUSED");
  });

  test.each(PASSES)("passes: %p", (command) => {
    expect(guard(command)?.why).toBeUndefined();
  });

  test("the reason names what would be lost", () => {
    expect(guard("git switch -f main")!.why).toContain("uncommitted changes");
    expect(guard("find .git -delete")!.why).toContain("history");
    expect(guard("git branch -f old HEAD")!.why).toContain("commits only it had");
    expect(guard("git config remote.origin.push +main:main")!.why).toContain("remote.origin.push");
  });
});

describe("a push that a config file already makes force", () => {
  test("git push without refspecs is refused when the repository's or the user's config has a + push refspec or mirror", () => {
    const repo = tempDir("shiro-push-config-");
    mkdirSync(join(repo, ".git"));
    const home = tempDir("shiro-push-home-");
    const judge = (command: string) => guardCommand(command, { root: repo, home })?.why;
    writeFileSync(join(repo, ".git", "config"), '[remote "origin"]\n\turl = ../r\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n');
    expect(judge("git push origin")).toBeUndefined();
    writeFileSync(join(repo, ".git", "config"), '[remote "origin"]\n\turl = ../r\n\tpush = +refs/heads/*:refs/heads/*\n');
    expect(judge("git push origin")).toContain("remote.origin.push = +refs/heads/*:refs/heads/*");
    expect(judge("git push")).toBeDefined();
    expect(judge("git push origin main")).toBeUndefined(); // a refspec on the line replaces the configured one
    writeFileSync(join(repo, ".git", "config"), "");
    writeFileSync(join(home, ".gitconfig"), '[remote "origin"]\n\tmirror = true\n');
    expect(judge("git push origin")).toContain("mirror");
  });
});
