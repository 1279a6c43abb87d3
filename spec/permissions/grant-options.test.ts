// A grant ("always", or saved in alwaysAllow) for a program never covers the options that make it
// run another program. Options are read per program: the same letter elsewhere means something else.
import { describe, expect, test } from "bun:test";
import { coreTools } from "../../lib/tools/index.ts";
import { createSessionGrants, grantFor, type Grant } from "../../lib/permissions/session-grants.ts";

const bash = coreTools.find((t) => t.name === "bash")!;
const covered = (grants: Grant[], command: string) => createSessionGrants(grants).covers(bash, command);
const prefix = (pattern: string): Grant => ({ tool: "bash", pattern });

const NOT_COVERED: [string, string][] = [
  ["git fetch *", "git fetch --upload-pack='touch /tmp/x' origin"],
  ["git fetch *", "git fetch --upload=evil origin"],
  ["git pull *", "git pull --upload-pack=evil origin main"],
  ["git clone *", "git clone -u evil ../r"],
  ["git clone *", "git clone --template=../t ../r"],
  ["git clone *", "git clone -c core.fsmonitor=evil ../r"],
  ["git ls-remote *", "git ls-remote --upload-pack=evil ../r"],
  ["git push *", "git push --receive-pack=evil origin main"],
  ["git push *", "git push --exec=evil origin main"],
  ["git archive *", "git archive --exec=evil --remote=../r HEAD"],
  ["git rebase *", "git rebase -x 'make' main"],
  ["git rebase *", "git rebase --exec=make main"],
  ["git difftool *", "git difftool -x evil"],
  ["git grep *", "git grep -Oevil pattern"],
  ["git submodule *", "git submodule foreach 'make'"],
  ["git bisect *", "git bisect run make"],
  ["git status *", "git -C ../other status"],
  ["git status *", "git --git-dir=../other/.git status"],
  ["git status *", "git --exec-path=./bin status"],
  ["npm test *", "LD_PRELOAD=./x.so npm test"],
  ["npm test *", "NODE_OPTIONS=--require=./x.js npm test"],
  ["npm test *", "PATH=./bin:$PATH npm test"],
  ["npm test *", "GIT_SSH_COMMAND=evil npm test"],
  ["git status *", "GIT_DIR=../other/.git git status"],
  ["find *", "find . -exec make {} +"],
  ["find *", "find . -execdir make \\;"],
  ["find *", "find . -ok make \\;"],
  ["tar *", "tar xf a.tar --to-command=sh"],
  ["tar *", "tar --use-compress=evil -xf a.tar"],
  ["tar *", "tar -xIevil -f a.tar"],
  ["tar *", "tar xIf evil a.tar"],
  ["tar *", "tar -xf a.tar --checkpoint-action=exec=evil"],
  ["rsync *", "rsync -e 'sh -c evil' a b:"],
  ["rsync *", "rsync -avze evil a b:"],
  ["rsync *", "rsync --rsync-path=evil a b:"],
  ["ssh *", "ssh -o ProxyCommand=evil host"],
  ["ssh *", "ssh -oProxyCommand=evil host"],
  ["scp *", "scp -S evil a host:"],
  ["sed *", "sed '1e make' f"],
  ["sed *", "sed 's/x/make/e' f"],
  ["awk *", "awk 'BEGIN{system(\"make\")}'"],
  ["sort *", "sort --compress-program=evil f"],
  ["man *", "man -P evil ls"],
  ["less *", "less '+!make' f"],
  ["xargs *", "xargs make"],
  ["env *", "env make"],
  ["nice *", "nice make"],
  ["timeout *", "timeout 5 make"],
  ["*", "git fetch --upload-pack=evil origin"],
  ["*", "find . -exec make {} +"],
];

const STILL_COVERED: [string, string][] = [
  ["git fetch *", "git fetch origin"],
  ["git fetch *", "git fetch --prune origin"],
  ["git commit *", "git commit -c HEAD"], // -c reuses a message here, it sets no config
  ["grep *", "grep -c pattern f"], // counts
  ["find *", "find . -name '*.ts' -print"],
  ["tar *", "tar -xzf a.tar.gz"],
  ["rsync *", "rsync -avz a b"],
  ["ssh *", "ssh host ls"],
  ["sed *", "sed -n 's/x/y/p' f"],
  ["npm test *", "CI=1 npm test"],
  ["git commit *", "GIT_AUTHOR_NAME=me git commit -m x"],
  ["*", "git status"],
];

describe("grants and the options that run another program", () => {
  test.each(NOT_COVERED)("%p does not cover %p", (pattern, command) => {
    expect(covered([prefix(pattern)], command)).toBe(false);
  });

  test.each(STILL_COVERED)("%p still covers %p", (pattern, command) => {
    expect(covered([prefix(pattern)], command)).toBe(true);
  });

  test("an exact line covers itself only: what the user saw in full", () => {
    const line = "git fetch --upload-pack=./pack origin";
    expect(covered([prefix(line)], line)).toBe(true);
    expect(covered([prefix(line)], `${line} main`)).toBe(false);
  });

  test("always for such a command offers the exact line, never the program's prefix", () => {
    expect(grantFor(bash, "git fetch --upload-pack=./pack origin")).toEqual({ tool: "bash", pattern: "git fetch --upload-pack=./pack origin" });
    expect(grantFor(bash, "git fetch origin")).toEqual({ tool: "bash", pattern: "git fetch *" });
  });
});
