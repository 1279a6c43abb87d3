import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCommands } from "../../lib/sandbox/index.ts";
import { parseEnv0, profileChanges, splitEnvs } from "../../lib/sandbox/login-env.ts";
import { reportSkip, sandboxUnavailable } from "./support.ts";
import { createBashTool } from "../../lib/tools/bash.ts";
import { runTool } from "../../lib/tools/define.ts";
import { tempDir } from "../support/cli.ts";

test("env -0 output is read as NAME=value entries, values may hold = and newlines", () => {
  expect(parseEnv0("A=1\0B=x=y\0C=two\nlines\0")).toEqual(new Map([["A", "1"], ["B", "x=y"], ["C", "two\nlines"]]));
});

test("what the profile adds or changes is kept; the shell's own variables, git's settings and the key are not", () => {
  const plain = new Map([["PATH", "/usr/bin"], ["HOME", "/h"], ["SHLVL", "1"]]);
  const login = new Map([["PATH", "/h/.pyenv/shims:/usr/bin"], ["HOME", "/h"], ["SHLVL", "2"], ["PWD", "/w"], ["PYENV_ROOT", "/h/.pyenv"], ["GIT_CONFIG_COUNT", "9"], ["LEAK", "key sk-secret-123456789 here"]]);
  expect(profileChanges(plain, login, (v) => v.includes("sk-secret-123456789"))).toEqual({ PATH: "/h/.pyenv/shims:/usr/bin", PYENV_ROOT: "/h/.pyenv" });
});

describe("bash runs commands with the login environment, read once", () => {
  const setup = (profile: string, env: Record<string, string> = {}, signal = new AbortController().signal) => {
    const home = tempDir("shiro-login-home-");
    const root = tempDir("shiro-login-work-");
    writeFileSync(join(home, ".profile"), profile);
    const key = "sk-profile-key-123456789";
    const commands = openCommands({ settings: { mode: "off", network: true, writable: [], readable: [] }, root, shiroHome: join(home, ".shiro-neko"), env: { PATH: process.env.PATH, HOME: home, OPENAI_API_KEY: key, ...env }, apiKey: key });
    const bash = createBashTool(commands);
    const notices: string[] = [];
    const ctx = { root, cwd: root, signal, notice: (message: string) => void notices.push(message) };
    return { home, root, key, notices, run: async (command: string) => (await runTool(bash, { command }, ctx)).output, close: () => commands.runner.close() };
  };

  test("the profile's PATH and variables reach every command, and the profile runs once, not once per command", async () => {
    const s = setup(`echo ran >> "$HOME/profile-runs"\nexport PATH="$HOME/bin:$PATH"\nexport FROM_PROFILE=yes\n`);
    for (let i = 0; i < 3; i++) expect(await s.run("echo $FROM_PROFILE $PATH")).toContain(`yes ${s.home}/bin:`);
    expect(readFileSync(join(s.home, "profile-runs"), "utf8").trim().split("\n")).toHaveLength(1);
    s.close();
  });

  test("a BASH_ENV script that appends to a variable runs once per command, as without shiro", async () => {
    const dir = tempDir("shiro-login-bashenv-");
    writeFileSync(join(dir, "env.sh"), 'export STACKED="${STACKED}x"\n');
    const s = setup("export FROM_PROFILE=yes\n", { BASH_ENV: join(dir, "env.sh") });
    expect(await s.run("echo $STACKED $FROM_PROFILE")).toContain("x yes");
    expect(await s.run("echo $STACKED")).not.toContain("xx");
    s.close();
  });

  test("a key the profile exports does not reach commands", async () => {
    const s = setup(`export OPENAI_API_KEY=sk-profile-key-123456789\nexport OTHER=fine\n`);
    const out = await s.run("echo key=${OPENAI_API_KEY:-none} other=$OTHER");
    expect(out).toContain("key=none other=fine");
    s.close();
  });

  test("a profile that exits is left out: commands still run, and the first one says why", async () => {
    const s = setup(`echo ran >> "$HOME/profile-runs"\necho "profile: pyenv is missing" >&2\nexit 3\n`);
    const first = await s.run("echo one");
    expect(first).toContain("Exit code 0");
    expect(first).toContain("one");
    expect(first).toContain("[shiro: the user's login shell could not be read (it exited with 3: profile: pyenv is missing), so commands run without their profile");
    expect(s.notices).toEqual([expect.stringContaining("your login shell could not be read (it exited with 3: profile: pyenv is missing), so commands run without your profile")]);
    const second = await s.run("echo two");
    expect(second).toBe("Exit code 0\ntwo\n");
    expect(s.notices).toHaveLength(1);
    // Read once; no command ran it again.
    expect(readFileSync(join(s.home, "profile-runs"), "utf8").trim().split("\n")).toHaveLength(1);
    s.close();
  });

  test("ctrl-c while a slow profile is still being read stops the call at once, and the command never runs", async () => {
    const stop = new AbortController();
    const s = setup("sleep 3\n", {}, stop.signal);
    setTimeout(() => stop.abort(), 300);
    const began = Date.now();
    const out = await s.run(`touch "${"$"}HOME/command-ran"`);
    expect(Date.now() - began).toBeLessThan(2000);
    expect(out).toStartWith("Interrupted by the user before the command started");
    await Bun.sleep(3500); // the profile's read has ended by now; a command still queued behind it would have run
    expect(existsSync(join(s.home, "command-ran"))).toBe(false);
    s.close();
  });
});

test("the one shell's output splits into the plain environment and the login one", () => {
  const plain = "A=1\0B=2\0";
  const login = "A=1\0B=3\0PATH=/x\0";
  expect(splitEnvs(`${plain}SHIRO_LOGIN_ENV_FOLLOWS\0${login}`)).toEqual({ plain: new Map([["A", "1"], ["B", "2"]]), login: new Map([["A", "1"], ["B", "3"], ["PATH", "/x"]]) });
  // An empty plain environment, and output cut short before the login shell spoke.
  expect(splitEnvs(`SHIRO_LOGIN_ENV_FOLLOWS\0${login}`)?.plain.size).toBe(0);
  expect(splitEnvs(plain)).toBeUndefined();
});

const unavailable = sandboxUnavailable();
reportSkip("spec/sandbox/login-env.test.ts", unavailable);

test.skipIf(unavailable !== undefined)("in the sandbox, a home under /tmp keeps its profile: its variables and PATH reach commands", async () => {
  const home = tempDir("shiro-login-tmphome-"); // under /tmp, which the sandbox replaces with its own
  const root = tempDir("shiro-login-tmpwork-");
  mkdirSync(join(home, "mybin"));
  writeFileSync(join(home, "mybin", "mytool"), "#!/bin/sh\necho mytool ran\n", { mode: 0o755 });
  writeFileSync(join(home, ".profile"), 'export MYVAR=from-profile\nexport PATH="$HOME/mybin:$PATH"\n');
  const commands = openCommands({ settings: { mode: "on", network: true, writable: [], readable: [] }, root, shiroHome: join(home, ".shiro-neko"), env: { PATH: process.env.PATH, HOME: home }, apiKey: undefined });
  try {
    expect(commands.status.state).toBe("on");
    const out = (await runTool(createBashTool(commands), { command: "echo $MYVAR; mytool" }, { root, cwd: root, signal: new AbortController().signal })).output;
    expect(out).toContain("from-profile");
    expect(out).toContain("mytool ran");
  } finally {
    commands.runner.close();
  }
});
