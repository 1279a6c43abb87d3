// What surrounds the sandbox and holds without it: the settings, the run-once-outside offer in the
// policy, git's safety settings on this machine, project instructions, grep and glob on real paths.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "../../lib/config/resolve.ts";
import { flagsFrom, parseFlags, MAIN_ARGS } from "../../cmd/args.ts";
import { createPermissionPolicy } from "../../lib/permissions/policy.ts";
import { bashTool } from "../../lib/tools/bash.ts";
import { createGrepTool } from "../../lib/tools/grep.ts";
import { globTool } from "../../lib/tools/glob.ts";
import { runTool } from "../../lib/tools/define.ts";
import { loadProjectDocs } from "../../lib/agent/project-docs.ts";
import { gitReadSafetyEnv, gitSafetyEnv } from "../../lib/sandbox/git-safety.ts";
import { createHostRunner } from "../../lib/sandbox/process.ts";
import { findHelper } from "../../lib/sandbox/helpers.ts";
import { installCommand, detectSandbox, probeSandbox } from "../../lib/sandbox/detect.ts";
import { sandboxFailure } from "../../lib/sandbox/failure.ts";
import { isProtectedSecret } from "../../lib/permissions/defaults.ts";
import { tempDir } from "../support/cli.ts";

const LOCAL = { SHIRO_BASE_URL: "http://127.0.0.1:9/v1" };

describe("settings", () => {
  test("the sandbox is on with the network by default; config and the --no- flags turn it off, flags first", () => {
    expect(resolveSettings({}, LOCAL, {}).sandbox).toEqual({ mode: "on", network: true, writable: [], readable: [], hide: [] });
    const config = { sandbox: "off" as const, sandboxNetwork: false, sandboxWritable: ["../x"], sandboxReadable: ["~/.ssh"], sandboxHide: ["~/.tokens"] };
    expect(resolveSettings({}, LOCAL, config).sandbox).toEqual({ mode: "off", network: false, writable: ["../x"], readable: ["~/.ssh"], hide: ["~/.tokens"] });
    const flags = flagsFrom(parseFlags(["--no-sandbox", "--no-network"], MAIN_ARGS));
    expect(resolveSettings(flags, LOCAL, {}).sandbox).toMatchObject({ mode: "off", network: false });
    expect(flagsFrom(parseFlags([], MAIN_ARGS))).toMatchObject({ sandbox: undefined, network: undefined });
  });

  test("bubblewrap's install command follows the distribution, and a non-Linux machine is told why", () => {
    expect(installCommand('ID=ubuntu\nID_LIKE=debian\n')).toBe("sudo apt-get install bubblewrap");
    expect(installCommand("ID=fedora\n")).toBe("sudo dnf install bubblewrap");
    expect(installCommand("ID=arch\n")).toBe("sudo pacman -S bubblewrap");
    expect(detectSandbox("/usr/bin/bwrap", "darwin")).toMatchObject({ available: false, why: expect.stringContaining("Linux only") });
    expect(detectSandbox(undefined, "linux")).toMatchObject({ available: false, why: expect.stringContaining("not installed") });
  });

  test("tried in the background, the sandbox check gives the answer the waiting check gives, once per bubblewrap", async () => {
    const dir = tempDir("shiro-probe-");
    const fake = (name: string, script: string) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      return path;
    };
    // A bubblewrap that cannot make namespaces here (a container), one that can, and one that counts its runs.
    const refused = fake("bwrap-refused", 'echo "bwrap: No permissions to create new namespace" >&2; exit 1');
    const works = fake("bwrap-works", "exit 0");
    const runs = join(dir, "runs");
    const counted = fake("bwrap-counted", `echo run >> ${runs}; exit 0`);
    const background = await probeSandbox(refused, "linux");
    expect(background).toMatchObject({ available: false, why: expect.stringContaining("(bwrap: No permissions to create new namespace)"), fix: expect.stringContaining("user namespaces") });
    expect(detectSandbox(refused, "linux")).toEqual(background);
    expect(await probeSandbox(works, "linux")).toEqual({ available: true, bwrap: works });
    expect(await probeSandbox(undefined, "linux")).toEqual(detectSandbox(undefined, "linux"));
    const [a, b] = await Promise.all([probeSandbox(counted, "linux"), probeSandbox(counted, "linux")]);
    expect(detectSandbox(counted, "linux")).toEqual(a);
    expect(b).toEqual(a);
    expect(readFileSync(runs, "utf8")).toBe("run\n");
  });
});

describe("run once outside the sandbox", () => {
  const root = tempDir("shiro-outside-");
  const ask = async () => "once" as const;
  const call = (command: string) => ({ tool: bashTool, input: { command }, subject: command, id: "c1" });

  test("offered only interactively, in the sandbox, for commands", async () => {
    const interactive = createPermissionPolicy({ config: {}, root, yolo: true, interactive: true, sandboxed: true, ask });
    const decision = await interactive.approve(call("echo x > ../y"));
    expect(decision.allow && typeof decision.runOutside).toBe("function");
    for (const policy of [
      createPermissionPolicy({ config: {}, root, yolo: true, interactive: false, sandboxed: true }),
      createPermissionPolicy({ config: {}, root, yolo: true, interactive: true, sandboxed: false, ask }),
    ]) {
      const other = await policy.approve(call("echo x > ../y"));
      expect(other.allow && other.runOutside).toBeUndefined();
    }
  });

  test("the guard judges the same in the sandbox as outside it: a script it cannot read is refused before anyone is asked", async () => {
    let asked = 0;
    const policy = createPermissionPolicy({ config: {}, root, yolo: true, interactive: true, sandboxed: true, ask: async () => (asked++, "once") });
    const piped = await policy.approve(call("printf 'echo hi' | bash"));
    expect(piped.allow).toBe(false);
    const plain = await policy.approve(call("touch ../y"));
    expect(plain.allow && (await plain.runOutside!("it tried to write outside the workspace"))).toBe(true);
    expect(asked).toBe(1);
  });

  test("what counts as stopped by the sandbox", () => {
    const view = { network: false, hidden: ["/h/.aws"] };
    expect(sandboxFailure("touch: cannot touch '/x': Read-only file system", 1, view)).toContain("outside the workspace");
    // git's configuration is read-only inside the workspace: the reason says so, not "outside".
    expect(sandboxFailure("error: could not lock config file .git/config: Read-only file system", 255, view)).toStartWith("it tried to change git's configuration");
    expect(sandboxFailure("bash: .git/hooks/pre-commit: Read-only file system", 1, view)).toStartWith("it tried to change git's configuration");
    expect(sandboxFailure("mv: cannot move '.git' to '.git-old': Device or resource busy", 1, view)).toStartWith("it tried to change git's configuration");
    expect(sandboxFailure("curl: (6) Could not resolve host: x", 6, view)).toContain("network");
    expect(sandboxFailure("git@github.com: Permission denied (publickey).", 128, view)).toContain("~/.ssh");
    expect(sandboxFailure("cat: /h/.aws/credentials: No such file or directory", 1, view)).toContain("/h/.aws");
    expect(sandboxFailure("cat: .env: Permission denied", 1, view)).toBeUndefined();
    expect(sandboxFailure("Read-only file system", 0, view)).toBeUndefined();
  });
});

const git = findHelper("git", { path: process.env.PATH, root: "/nonexistent" });

describe.skipIf(!git)("git run by shiro, without the sandbox", () => {
  test("a hostile .git/config runs no program: pager, fsmonitor, hooks, textconv, external diff, ! aliases", async () => {
    const root = tempDir("shiro-gitsafe-");
    const sh = (script: string) => Bun.spawnSync(["bash", "-c", script], { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" } });
    sh(
      "git init -q && echo a > f.txt && echo '*.txt diff=evil' > .gitattributes && git add -A && git commit -qm 1 && echo b >> f.txt && " +
        "git config diff.evil.textconv 'touch TEXTCONV-RAN; cat' && git config diff.external 'touch EXTERNAL-RAN' && git config core.pager 'touch PAGER-RAN; cat' && " +
        "git config core.fsmonitor 'touch FSMONITOR-RAN' && git config alias.st '!touch ALIAS-RAN' && git config alias.lg 'log --oneline' && " +
        "printf '#!/bin/sh\\ntouch HOOK-RAN\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
    );
    const env = gitSafetyEnv(root, git);
    expect(env.GIT_CONFIG_COUNT).toBeDefined();
    const runner = createHostRunner({ PATH: process.env.PATH ?? "", HOME: root, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" });
    const child = runner.spawn(["bash", "-c", "git status; git diff; git log -p | cat; git st; git lg; git commit -qam 2"], { cwd: root, env });
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(out).toContain("+b");
    expect(err).toContain("the alias git lg from this repository's config is not run"); // even one that only runs git
    for (const marker of ["TEXTCONV-RAN", "EXTERNAL-RAN", "PAGER-RAN", "FSMONITOR-RAN", "ALIAS-RAN", "HOOK-RAN"]) expect(existsSync(join(root, marker)) ? marker : "").toBe("");
  });
});

describe.skipIf(!git)("the git safety settings follow a config that changes during the session", () => {
  const keys = (env: Record<string, string>) => Object.entries(env).filter(([k]) => k.startsWith("GIT_CONFIG_KEY_")).map(([, v]) => v);
  test("a program added to .git/config after the first command is neutralised from the next one", () => {
    const root = tempDir("shiro-gitsafe-");
    Bun.spawnSync(["git", "init", "-q"], { cwd: root });
    expect(keys(gitSafetyEnv(root, git))).not.toContain("diff.external");
    Bun.spawnSync(["git", "config", "diff.external", "touch EXTERNAL-RAN"], { cwd: root });
    expect(keys(gitSafetyEnv(root, git))).toContain("diff.external");
  });

  test("a program added to a file the config includes is neutralised too", () => {
    const root = tempDir("shiro-gitsafe-");
    Bun.spawnSync(["git", "init", "-q"], { cwd: root });
    writeFileSync(join(root, "extra.gitconfig"), "[core]\n\tautocrlf = false\n");
    Bun.spawnSync(["git", "config", "include.path", "../extra.gitconfig"], { cwd: root });
    expect(keys(gitSafetyEnv(root, git))).not.toContain("core.sshcommand");
    writeFileSync(join(root, "extra.gitconfig"), "[core]\n\tsshCommand = touch SSH-RAN\n");
    expect(keys(gitSafetyEnv(root, git))).toContain("core.sshcommand");
  });
});

describe("secrets on real paths", () => {
  const root = tempDir("shiro-realpaths-");
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, ".env"), "TOKEN=CANARY-REAL\n");
  writeFileSync(join(root, "sub", ".env.local"), "TOKEN=CANARY-REAL\n");
  writeFileSync(join(root, "plain.txt"), "TOKEN=visible\n");
  symlinkSync(".env", join(root, "notes.txt"));
  const ctx = { root, cwd: root, signal: new AbortController().signal };

  test("grep refuses a link to a secrets file named as its path, and skips links to one", async () => {
    for (const tool of [createGrepTool({ findRipgrep: () => null }), createGrepTool()]) {
      await expect(runTool(tool, { pattern: "TOKEN", path: "notes.txt" }, ctx)).rejects.toThrow(/secrets file/);
      const all = await runTool(tool, { pattern: "TOKEN" }, ctx);
      expect(all.output).toContain("plain.txt:1: TOKEN=visible");
      expect(all.output).not.toContain("CANARY");
    }
  });

  test("glob leaves secrets files and links to them out", async () => {
    const found = await runTool(globTool, { pattern: "**/*" }, ctx);
    expect(found.output.split("\n").sort()).toEqual(["plain.txt"]);
  });

  test("a glob after cd is expanded where the command is", () => {
    const bash = { subject: { kind: "command" as const } };
    expect(isProtectedSecret(bash, "cd sub && cat .e*", root)).toBe(true);
    expect(isProtectedSecret(bash, "cd $X && cat .e*", root)).toBe(true); // unknown directory: the name decides
    expect(isProtectedSecret(bash, "cd sub && cat *.txt", root)).toBe(false);
  });
});

describe("project instructions", () => {
  test("only regular files inside the workspace that are not secrets: links to .env or out of it are skipped", async () => {
    const top = tempDir("shiro-docs-");
    const root = join(top, "ws");
    mkdirSync(join(root, "a", "b"), { recursive: true });
    writeFileSync(join(root, ".env"), "CANARY-DOCS");
    writeFileSync(join(top, "credentials"), "CANARY-OUTSIDE");
    writeFileSync(join(root, "guide.md"), "real guide");
    symlinkSync(".env", join(root, "AGENTS.md"));
    symlinkSync(join(top, "credentials"), join(root, "a", "AGENTS.md"));
    symlinkSync("../../guide.md", join(root, "a", "b", "AGENTS.md"));
    const docs = await loadProjectDocs(root, join(root, "a", "b"));
    expect(docs.map((d) => d.text)).toEqual(["real guide"]);
    writeFileSync(join(root, "CLAUDE.md"), "fallback");
    expect((await loadProjectDocs(root, root)).map((d) => d.text)).toEqual(["fallback"]);
  });
});

describe.skipIf(!git)("one owner of git's hardening", () => {
  const settings = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("GIT_CONFIG_KEY_")).map(([k, key]) => [key, env[k.replace("KEY", "VALUE")]]));
  test("commands and the git tool take it from the same place; a read also switches off your own global programs, a command keeps them", () => {
    const root = tempDir("shiro-gitsafe-");
    const home = tempDir("shiro-gitsafe-home-");
    writeFileSync(join(home, ".gitconfig"), "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n[credential]\n\thelper = store\n");
    Bun.spawnSync(["git", "init", "-q"], { cwd: root, env: { PATH: process.env.PATH, HOME: home } });
    Bun.spawnSync(["git", "config", "filter.evil.clean", "touch CLEAN-RAN"], { cwd: root });
    const commands = settings(gitSafetyEnv(root, git));
    const reads = settings(gitReadSafetyEnv(root, git!, { PATH: process.env.PATH, HOME: home }));
    for (const key of ["core.fsmonitor", "core.hooksPath", "core.pager", "filter.evil.clean"]) expect([key, reads[key]]).toEqual([key, commands[key]]);
    // Your lfs filter and credential helper keep working in a command's git…
    expect(commands["filter.lfs.clean"]).toBeUndefined();
    expect(commands["credential.helper"]).toBeUndefined();
    // …but a read runs neither, nor gpg for signatures, nor a submodule summary.
    expect(reads).toMatchObject({ "filter.lfs.clean": "", "credential.helper": "", "log.showSignature": "false", "status.submoduleSummary": "false", "diff.external": "" });
  });
});
