// The probe's holes at the level of the decision engine, on a real file system: each case is a
// command the guard or the rules must judge where its paths really are.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardCommand } from "../../lib/permissions/guard.ts";
import { decideCall } from "../../lib/permissions/decide.ts";
import { flattenRules } from "../../lib/permissions/rules.ts";
import { createSessionGrants } from "../../lib/permissions/session-grants.ts";
import { isProtectedSecret } from "../../lib/permissions/defaults.ts";
import { tempDir } from "../support/cli.ts";

/** A workspace inside a temp dir, with a sentinel directory beside it and the links a hostile repo ships. */
function layout() {
  const top = tempDir("shiro-holes-");
  const root = join(top, "ws");
  const outside = join(top, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, ".git"));
  mkdirSync(join(root, "build-real"));
  mkdirSync(join(root, "migrations"));
  mkdirSync(outside);
  writeFileSync(join(root, "package.json"), "{}");
  writeFileSync(join(root, ".env"), "CANARY=1");
  writeFileSync(join(root, ".env.example"), "CANARY=");
  symlinkSync("../..", join(root, "build"));
  symlinkSync(outside, join(root, "link"));
  symlinkSync("migrations", join(root, "m"));
  symlinkSync(".env", join(root, "notes.txt"));
  return { top, root, outside };
}

describe("rm, judged where its targets really are", () => {
  const { root } = layout();
  const guard = (command: string) => guardCommand(command, { root, home: "/nonexistent-home" });

  test("a symlinked directory, with a trailing slash, inside a glob or after cd, is judged at its target", () => {
    for (const command of ["rm -rf build/", "rm -rf build/.", "rm -rf link/*", "cd link && rm -rf *", "rm -rf link/", "cd build && rm -rf ./*"]) {
      expect(guard(command)?.why ?? `not refused: ${command}`).toMatch(/outside the workspace|symlink/);
    }
  });

  test("unique prefixes of --recursive and --force count", () => {
    for (const command of ["rm --r ../x", "rm --recur --forc ../x", "rm --rec ../x", "rm --f ../x"]) expect(guard(command)).toBeDefined();
  });

  test("globs are expanded on disk: .g* is .git, [a-z]* and [!.]* at the root are everything", () => {
    expect(guard("rm -rf .g*")?.why).toContain("history");
    expect(guard("rm -rf [a-z]*")?.why).toContain("everything in the workspace root");
    expect(guard("rm -rf [!.]*")?.why).toContain("everything in the workspace root");
  });

  test("look-alikes pass: a link itself, a real directory, a narrow glob", () => {
    for (const command of ["rm -rf build", "rm -rf build-real/", "rm -rf src/*", "rm -f *.json", "rm -rf ./build-real"]) expect(guard(command)).toBeUndefined();
  });

  test("xargs rm -rf has targets only known when it runs", () => {
    expect(guard("find . -name '*.o' | xargs rm -rf")?.why).toContain("only known when it runs");
  });
});

describe("scripts the guard cannot read are refused, sandbox or not", () => {
  const { root } = layout();
  const guard = (command: string) => guardCommand(command, { root, home: "/nonexistent-home" });
  const UNREADABLE = [
    "printf 'rm -rf ../x' | bash",
    "echo x | sh -s",
    "bash -O extglob -c 'ls'",
    "bash -o posix -c 'ls'",
    "env -S 'ls -la'",
    "bash <(echo ls)",
    "bash < <(echo ls)",
    "source <(echo ls)",
    'bash <<< "$SCRIPT"',
    "$(echo rm) -rf x",
    "`echo rm` -rf x",
    "$RM -rf x",
    "/bin/r? -rf x",
    "GIT_CONFIG_COUNT=0 git log",
    "export GIT_PAGER=less",
  ];

  test("refused, each with the reason (the guard has no sandbox switch: it judges the same in both)", () => {
    for (const command of [...UNREADABLE, "echo 'git reset --hard' | sh", "printf 'rm -rf .git' | bash", "cat setup.sh | bash -s"]) {
      expect(guard(command)?.why ?? `not refused: ${command}`).toMatch(/without running it|only known when it runs|changes GIT|changes PAGER|shell option/);
    }
  });

  test("what the wrappers run is still checked", () => {
    for (const command of ["{rm,-rf,.git}", "setsid rm -rf .git", "flock /tmp/l rm -rf .git", "flock /tmp/l -c 'rm -rf .git'", "script -qc 'rm -rf .git' /dev/null", "su -c 'git reset --hard'", "watch 'git clean -fd'"]) {
      expect(guard(command)?.why ?? `not refused: ${command}`).toBeDefined();
    }
  });

  test("honest commands still pass", () => {
    const honest = ["until [ -f go ]; do sleep 0.05; done", "[[ -n x ]] && echo y", "[ -d src ] || mkdir src", "bash -o pipefail -c 'npm test | tail -5'", "bash -ec 'make'", "bash script.sh", "sh < setup.sh", "EDITOR=vim; $EDITOR notes.md", "bash <<EOF\nls\nEOF"];
    expect(honest.filter((command) => guard(command) !== undefined)).toEqual([]);
  });
});

describe("git, by any prefix git accepts", () => {
  const { root } = layout();
  const guard = (command: string) => guardCommand(command, { root, home: "/nonexistent-home" });
  const MUST_BLOCK = [
    "git reset --har",
    "git reset --h HEAD~1",
    "git push --force-w",
    "git push --forc",
    "git push --mirror",
    "git push --mir",
    "git push origin --delete feature",
    "git push origin :feature",
    "git push --prune origin",
    "git clean --forc -d",
    "git branch --del --force old",
    "git checkout -- .",
    "git checkout .",
    "git checkout src",
    "git checkout HEAD~1 -- package.json",
    "git checkout -f main",
    "git restore .",
    "git restore --source=HEAD~2 src",
    "git stash drop",
    "git stash clear",
    "git -c alias.p='push --force' p",
    "git -c alias.x='!rm -rf ~' x",
    "git -c core.pager='sh -c id' log",
    "git --config-env=core.sshCommand=EVIL push",
    "git -c diff.x.textconv=evil diff",
  ];
  const MUST_PASS = ["git checkout main", "git checkout -b feature", "git restore --staged src/a.ts", "git stash", "git stash pop", "git push origin feature", "git push -u origin HEAD", "git -c user.name=me commit -m x", "git branch -d merged"];

  test("destructive forms are refused", () => {
    for (const command of MUST_BLOCK) expect(guard(command) ?? `not refused: ${command}`).toMatchObject({ why: expect.any(String) });
  });

  test("look-alikes pass", () => {
    expect(MUST_PASS.filter((command) => guard(command) !== undefined)).toEqual([]);
  });
});

describe("secrets named in a command, however written", () => {
  const { root } = layout();
  const bash = { subject: { kind: "command" as const } };
  test("quotes, globs on disk and git's rev:path are seen through", () => {
    for (const command of ["cat .en''v", 'cat ".e"nv', "cat .e*", "cat .[e]nv", "git show HEAD:.env", "git log -p -- .env", "git show HEAD:config/.env"]) {
      expect(isProtectedSecret(bash, command, root) ? "denied" : `not denied: ${command}`).toBe("denied");
    }
  });
  test(".env.example and other globs stay readable", () => {
    for (const command of ["cat .env.example", "cat *.json", "ls src/*"]) expect(isProtectedSecret(bash, command, root)).toBe(false);
  });
});

describe("rules match the unwrapped command and the real path", () => {
  const { root } = layout();
  const where = { root, cwd: root };
  const bash = { name: "bash", mutates: true, defaultDecision: "ask" as const, subject: { kind: "command" as const } };
  const write = { name: "write_file", mutates: true, defaultDecision: "ask" as const, subject: { kind: "path" as const } };

  test("a deny on curl stops every spelling of curl", () => {
    const rules = flattenRules({ bash: { "*": "allow", "curl *": "deny" } });
    for (const command of ["/usr/bin/curl x", "env curl x", "command curl x", "\\curl x", "c''url x", "X=1 curl x", "time curl x", "exec curl x", "nice -n 5 curl x", "timeout 5 curl x", "echo u | xargs curl", "sudo curl x"]) {
      expect(decideCall(rules, bash, command, where).decision === "deny" ? "deny" : `not denied: ${command}`).toBe("deny");
    }
    expect(decideCall(rules, bash, "echo curl", where).decision).toBe("allow");
  });

  test("with a deny rule, a program computed at run time is denied", () => {
    const rules = flattenRules({ bash: { "*": "allow", "curl *": "deny" } });
    expect(decideCall(rules, bash, "$(echo curl) x", where).decision).toBe("deny");
    expect(decideCall(flattenRules({ bash: { "*": "allow" } }), bash, "$(echo curl) x", where).decision).toBe("allow");
  });

  test("the unwrapped form never loosens: sudo git status is not allowed by git status*", () => {
    const rules = flattenRules({ bash: { "git status*": "allow" } });
    expect(decideCall(rules, bash, "git status", where).decision).toBe("allow");
    expect(decideCall(rules, bash, "sudo git status", where).decision).toBe("ask");
  });

  test("a path deny holds through an in-workspace symlink", () => {
    const rules = flattenRules({ write_file: { "*": "allow", "migrations/*": "deny" } });
    expect(decideCall(rules, write, "m/001.sql", where).decision).toBe("deny");
    expect(decideCall(rules, write, "src/a.ts", where).decision).toBe("allow");
  });
});

describe('"always" for git never covers -c settings or aliases', () => {
  test("git -c … and unknown subcommands ask again", () => {
    const grants = createSessionGrants();
    grants.add({ tool: "bash", pattern: "git *" });
    const bash = { name: "bash", subject: { kind: "command" as const } };
    expect(grants.covers(bash, "git status")).toBe(true);
    expect(grants.covers(bash, "git log --oneline && git diff")).toBe(true);
    expect(grants.covers(bash, "git -c alias.x='!touch pwned' x")).toBe(false);
    expect(grants.covers(bash, "git -c core.pager=cat log")).toBe(false);
    expect(grants.covers(bash, "git st")).toBe(false);
  });
});
