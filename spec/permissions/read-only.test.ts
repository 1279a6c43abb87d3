import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ReadOnlyCommandsConfig } from "../../lib/config/permission-schema.ts";
import { isReadOnlyCommand, readOnlyList } from "../../lib/permissions/read-only.ts";
import { createPermissionPolicy } from "../../lib/permissions/policy.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

const cwd = tempDir("shiro-ro-");
writeFileSync(join(cwd, "a.ts"), "x\n");
const builtIn = readOnlyList(undefined);
const readOnly = (command: string, list = builtIn) => isReadOnlyCommand(command, list, cwd);

describe("commands that only look run without a question", () => {
  test.each([
    "ls",
    "ls -la docs",
    "sleep 2",
    "seq -w 1 200000",
    "cat a.ts | head -5",
    "wc -l a.ts && tail -n 3 a.ts",
    "rg -n TODO src",
    "grep -rn 'rm -rf' .",
    "find . -name '*.ts' -type f",
    "pwd; echo done",
    "git status --short",
    "git diff HEAD~1 -- src",
    "git log --oneline -5",
    "git show HEAD:README.md",
    "git blame a.ts",
    "git branch -a",
    "git branch --list 'feat/*'",
    "git rev-parse HEAD",
    "git ls-files",
    "sort a.ts | uniq -c",
    "ls *.ts",
    "ls missing 2>/dev/null",
    "cat a.ts 2>&1 | head",
    "cd src && ls",
    "tree -L 2",
    "du -sh .",
    "sort -rn a.ts",
    "sort -k1o a.ts",
    "uniq -c a.ts",
  ])("%s", (command) => expect(readOnly(command)).toBe(true));
});

describe("look-alikes still ask", () => {
  test.each([
    ["ls > out.txt", "redirection into a file"],
    ["ls >> out.txt", "appending to a file"],
    ["cat x | sh", "a pipeline into a shell"],
    ["git log; rm -rf x", "a list with a command off the list"],
    ["echo $(rm x)", "command substitution"],
    ["echo `rm x`", "backticks"],
    ["cat <(rm x)", "process substitution"],
    ["diff a.ts >(tee out)", "process substitution as output"],
    ["git log --output=log.txt", "git log --output writes"],
    ["git log --outp=log.txt", "an abbreviation of --output"],
    ["git diff --output log.txt", "git diff --output writes"],
    ["git diff --ext-diff", "runs a configured program"],
    ["rg --pre ./decode TODO", "rg --pre runs a program"],
    ["rg --pre=./decode TODO", "rg --pre= runs a program"],
    ["find . -exec rm {} ;", "find -exec"],
    ["find . -name x -delete", "find -delete"],
    ["find . -fprint out", "find -fprint writes"],
    ["sort -o out a.ts", "sort -o writes"],
    ["sort -uo out a.ts", "sort -o in a cluster"],
    ["sort --output=out a.ts", "sort --output"],
    ["uniq a.ts out", "uniq's second operand is written"],
    ["uniq -- a.ts -out", "uniq's second operand after --"],
    ["sort -o./x a.ts", "sort -o with its value in the cluster"],
    ["sort -o/tmp/x a.ts", "sort -o with an absolute value in the cluster"],
    ["sort -ro./x a.ts", "sort -o after another letter"],
    ["sort --o=./x a.ts", "a one-letter prefix of --output"],
    ["sort --ou x a.ts", "a short prefix of --output"],
    ["sort --comp=sh a.ts", "a prefix of --compress-program"],
    ["git log --o=x", "a one-letter prefix of git's --output"],
    ["tree -ao out", "tree -o in a cluster"],
    ["file -zC", "file -C in a cluster"],
    ["cd src && find . -*", "a glob after cd, not at the start"],
    ["cd src && ls a*", "any glob after cd"],
    ["ls [[:punct:]]*", "a POSIX class bash expands"],
    ["ls [-]*", "a bracket expression"],
    ["ls +(a)", "extglob syntax"],
    ["cd sub && git status", "git under another directory's repository"],
    ["cd sub; git log", "git after cd in a list"],
    ["tree -o out", "tree -o writes"],
    ["git -c core.pager=sh log", "git with settings"],
    ["git -C other status", "git pointed elsewhere"],
    ["git branch new-feature", "git branch creating one"],
    ["git branch -D old", "git branch deleting"],
    ["git push", "git push"],
    ["git stash list", "git stash is not on the list"],
    ["sudo ls", "a wrapper"],
    ["env ls", "env as a wrapper"],
    ["LD_PRELOAD=x.so ls", "an assignment before the command"],
    ["X=1", "an assignment alone"],
    ["./ls", "a program by path"],
    ["/tmp/ls", "a program by absolute path"],
    ["cat $FILE", "an expansion"],
    ["ls {a,b}", "a brace expansion"],
    ["ls ~", "a tilde"],
    ["ls &", "a background job"],
    ["cat <<EOF\nhi\nEOF", "a heredoc"],
    ["wc < a.ts", "input redirection"],
    ["npm test", "a program off the list"],
    ["python -c 'print(1)'", "an interpreter"],
    ["", "nothing"],
  ])("%s (%s)", (command) => expect(readOnly(command)).toBe(false));

  test("a bracket glob is not expanded here, so it asks even when the file named like an option would match", () => {
    const dir = tempDir("shiro-ro-class-");
    writeFileSync(join(dir, "-delete"), "");
    writeFileSync(join(dir, "b.txt"), "");
    expect(isReadOnlyCommand("find [[:punct:]]*", builtIn, dir)).toBe(false);
    expect(isReadOnlyCommand("find ?delete", builtIn, dir)).toBe(false);
    expect(isReadOnlyCommand("ls ?.txt", builtIn, dir)).toBe(true);
  });

  test("without the sandbox, only operands inside the workspace: absolute, .., existing links and cd are resolved", () => {
    const root = tempDir("shiro-ro-confine-");
    const outside = tempDir("shiro-ro-outside-");
    writeFileSync(join(outside, "secret"), "s");
    writeFileSync(join(root, "a.txt"), "a");
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "b.txt"), "b");
    symlinkSync(join(outside, "secret"), join(root, "link"));
    symlinkSync(outside, join(root, "out"));
    const confined = (command: string) => isReadOnlyCommand(command, builtIn, root, root);
    for (const command of ["grep -rn x sub", "rg key sub", "cat a.txt", "cat sub/b.txt", "cd sub && cat b.txt", "grep -n x a.txt sub", "ls", "cat ./sub/../a.txt", "git diff HEAD~1 -- a.txt"]) {
      expect([command, confined(command)]).toEqual([command, true]);
    }
    for (const command of [
      `cat ${join(outside, "secret")}`,
      "cat /etc/shadow",
      "cat ../x",
      "cat link",
      "ls out",
      "cd out && cat secret",
      "cd /etc && cat shadow",
      "cd .. && ls",
      "cat l*",
      "grep --file=/etc/passwd x a.txt",
      "grep -f/etc/passwd a.txt",
      "grep -R key .",
      "grep -nR key sub",
      "rg --follow key",
      "rg -L key",
      "diff -r sub sub",
    ]) {
      expect([command, confined(command)]).toEqual([command, false]);
    }
    // In the sandbox the same reads are the sandbox's business.
    expect(isReadOnlyCommand("cat /etc/shadow", builtIn, root)).toBe(true);
  });

  test("a glob that matches a file named like an option asks", () => {
    const dir = tempDir("shiro-ro-dash-");
    writeFileSync(join(dir, "-delete"), "");
    writeFileSync(join(dir, "b.txt"), "");
    expect(isReadOnlyCommand("find *", builtIn, dir)).toBe(false);
    expect(isReadOnlyCommand("ls *.txt", builtIn, dir)).toBe(true);
  });
});

test("config readOnlyCommands adds programs and takes built-in ones out", () => {
  const list = readOnlyList({ add: ["jq", "npm ls"], remove: ["find", "git log"] });
  expect(readOnly("jq .name package.json", list)).toBe(true);
  expect(readOnly("npm ls --depth 0", list)).toBe(true);
  expect(readOnly("npm install", list)).toBe(false);
  expect(readOnly("find . -name x", list)).toBe(false);
  expect(readOnly("git log", list)).toBe(false);
  expect(readOnly("git status", list)).toBe(true);
  expect(readOnly("jq . x > out", list)).toBe(false); // the structural checks hold for added ones too
});

test("re-adding a built-in entry keeps its argument check", () => {
  const list = readOnlyList({ add: ["find", "sort", "git log"] });
  expect(readOnly("find . -name x", list)).toBe(true);
  expect(readOnly("find . -delete", list)).toBe(false);
  expect(readOnly("sort -o out a.ts", list)).toBe(false);
  expect(readOnly("git log --output=x", list)).toBe(false);
});

test("readOnlyCommands entries that could not apply are config errors, naming the entry", () => {
  const issue = (add: string[]) => {
    const parsed = v.safeParse(ReadOnlyCommandsConfig, { add });
    return parsed.success ? undefined : `${v.getDotPath(parsed.issues[0])}: ${parsed.issues[0].message}`;
  };
  expect(issue(["jq", "git"])).toBe('add.1: cannot be "git" alone: git is listed by sub-command, such as "git stash" or "git remote"');
  expect(issue(["git stash list"])).toContain('one sub-command word: "git stash", not "git stash list"');
  expect(issue(["cd"])).toContain('cannot be "cd"');
  expect(issue(["git stash", "npm ls"])).toBeUndefined();
});

describe("in the policy", () => {
  const bash = coreTools.find((t) => t.name === "bash")!;
  let id = 0;
  const run = (config: object, command: string, mode: "ask" | "edits" | "auto" | undefined = "ask") => {
    const asked: string[] = [];
    const policy = createPermissionPolicy({
      config,
      root: cwd,
      yolo: false,
      interactive: true,
      ...(mode ? { mode: () => mode } : {}),
      ask: async (q) => (asked.push(q.subject), "deny"),
    });
    return policy.approve({ tool: bash, input: { command }, subject: command, id: `c${++id}` }).then((approval) => ({ allow: approval.allow, asked: asked.length > 0 }));
  };

  test("a read-only command runs without a question; a look-alike asks", async () => {
    expect(await run({}, "ls")).toEqual({ allow: true, asked: false });
    expect(await run({}, "ls > out.txt")).toEqual({ allow: false, asked: true });
  });
  test("the secrets rule still refuses `cat .env`, and a deny rule wins", async () => {
    expect(await run({}, "cat .env")).toEqual({ allow: false, asked: false });
    expect(await run({ permission: { bash: { "ls*": "deny" } } }, "ls")).toEqual({ allow: false, asked: false });
  });
  test("without the sandbox a read outside the workspace asks; in the sandbox it does not", async () => {
    expect(await run({}, "cat /etc/hostname")).toEqual({ allow: false, asked: true });
    expect(await run({}, "cat a.ts")).toEqual({ allow: true, asked: false });
    const policy = createPermissionPolicy({ config: {}, root: cwd, yolo: false, interactive: true, sandboxed: true, mode: () => "ask", ask: async () => "deny" });
    expect((await policy.approve({ tool: bash, input: { command: "cat /etc/hostname" }, subject: "cat /etc/hostname", id: "sb1" })).allow).toBe(true);
  });
  test("a rule the user wrote saying ask is honoured", async () => {
    expect(await run({ permission: { bash: { "git *": "ask" } } }, "git status")).toEqual({ allow: false, asked: true });
  });
  test("headless (nobody to ask) runs what ask mode runs without a question, and denies the rest", async () => {
    const policy = createPermissionPolicy({ config: {}, root: cwd, yolo: false, interactive: false });
    const judge = async (command: string) => (await policy.approve({ tool: bash, input: { command }, subject: command, id: command })).allow;
    expect(await judge("ls")).toBe(true);
    expect(await judge("git status && cat a.ts | grep x")).toBe(true);
    expect(await judge("touch x")).toBe(false);
    expect(await judge("ls > out.txt")).toBe(false);
    expect(await judge("cat /etc/hostname")).toBe(false); // outside the workspace, unsandboxed: the loop would ask
    const write = coreTools.find((t) => t.name === "write_file")!;
    expect((await policy.approve({ tool: write, input: { path: "a.txt", content: "x" }, subject: "a.txt", id: "w" })).allow).toBe(false);
    const ruled = createPermissionPolicy({ config: { permission: { bash: { "ls*": "ask" } } }, root: cwd, yolo: false, interactive: false });
    expect((await ruled.approve({ tool: bash, input: { command: "ls" }, subject: "ls", id: "r" })).allow).toBe(false); // the user's ask rule holds
  });
  test("auto without a sandbox asks for commands, like edits", async () => {
    expect(await run({}, "touch x", "auto")).toEqual({ allow: false, asked: true });
    expect(await run({}, "touch x", "edits")).toEqual({ allow: false, asked: true });
  });

  test("auto in a working sandbox runs commands; a guard refusal holds", async () => {
    const policy = createPermissionPolicy({ config: {}, root: cwd, yolo: false, interactive: true, sandboxed: true, mode: () => "auto", ask: async () => "deny" });
    expect((await policy.approve({ tool: bash, input: { command: "touch x" }, subject: "touch x", id: "s1" })).allow).toBe(true);
    expect((await policy.approve({ tool: bash, input: { command: "rm -rf ~" }, subject: "rm -rf ~", id: "s2" })).allow).toBe(false);
  });
  test("edits runs file edits inside the workspace; outside one still asks", async () => {
    const write = coreTools.find((t) => t.name === "write_file")!;
    const asked: string[] = [];
    const policy = createPermissionPolicy({ config: {}, root: cwd, yolo: false, interactive: true, mode: () => "edits", ask: async (q) => (asked.push(q.subject), "deny") });
    const inside = { path: "new.txt", content: "x" };
    expect((await policy.approve({ tool: write, input: inside, subject: "new.txt", id: "e1" })).allow).toBe(true);
    const outside = { path: "/etc/hosts", content: "x" };
    expect((await policy.approve({ tool: write, input: outside, subject: "/etc/hosts", id: "e2" })).allow).toBe(false);
    expect(asked).toEqual(["/etc/hosts"]);
  });
  test("edits and auto never lift a write into git's own files: .git anywhere, .gitattributes, .gitmodules", async () => {
    const write = coreTools.find((t) => t.name === "write_file")!;
    for (const mode of ["edits", "auto"] as const) {
      const asked: string[] = [];
      const policy = createPermissionPolicy({ config: {}, root: cwd, yolo: false, interactive: true, sandboxed: true, mode: () => mode, ask: async (q) => (asked.push(q.subject), "deny") });
      const paths = [".git/config", ".git/hooks/pre-commit", "sub/.git/config", ".git", "sub/.GIT/config", ".gitattributes", "lib/.gitmodules"];
      for (const path of paths) expect((await policy.approve({ tool: write, input: { path, content: "x" }, subject: path, id: `g-${mode}-${path}` })).allow).toBe(false);
      expect(asked).toEqual(paths);
      asked.length = 0;
      // Through a symlink into .git, too.
      const linked = `gitlink-${mode}`;
      mkdirSync(join(cwd, ".git"), { recursive: true });
      symlinkSync(join(cwd, ".git"), join(cwd, linked));
      expect((await policy.approve({ tool: write, input: { path: `${linked}/config`, content: "x" }, subject: `${linked}/config`, id: `l-${mode}` })).allow).toBe(false);
      asked.length = 0;
      // Look-alikes are ordinary files.
      for (const path of [".github/workflows/ci.yml", ".gitignore", "docs/git.md"]) {
        expect((await policy.approve({ tool: write, input: { path, content: "x" }, subject: path, id: `ok-${mode}-${path}` })).allow).toBe(true);
      }
    }
  });
});
