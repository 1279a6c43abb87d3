// Approval modes in the loop (ask, edits, auto; shift-tab and /mode), the read-only commands that
// run without a question, calls that cannot succeed failing without one, "always" saved as a rule
// that the next session honours, and the bell.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { reportSkip, sandboxUnavailable, visibleTempDir } from "../sandbox/support.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();
const SHIFT_TAB = "\x1b[Z";
const unavailable = sandboxUnavailable();
reportSkip("spec/repl/pty-modes.test.ts (auto in the sandbox)", unavailable);

function homeWithConfig(config: object): string {
  const home = tempDir("shiro-home-");
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify(config));
  return home;
}

test("ls runs without a question; ls > out.txt asks; the status line shows the mode", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "x\n");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "ls" } }] },
    { toolCalls: [{ name: "bash", input: { command: "ls > out.txt" } }] },
    { text: "listed" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("mode ask");
  pty.line("list");
  await pty.waitFor("bash wants to run: ls > out.txt");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  expect(pty.screen()).not.toContain("bash wants to run: ls\n");
  expect(toolOutputsIn(s.requests[1]!.body).join("\n")).toContain("a.txt"); // ls ran, unasked
  pty.write("n");
  pty.write(KEYS.enter);
  await pty.waitFor("listed");
  expect(existsSync(join(cwd, "out.txt"))).toBe(false);
}, 20_000);

test("shift-tab cycles ask → edits → auto → plan; edits runs file edits and asks for commands; auto without a sandbox says so and behaves as edits; /mode switches back", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "e.txt", content: "edited\n" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch t1" } }] },
    { text: "first done" },
    { toolCalls: [{ name: "bash", input: { command: "touch t2" } }] },
    { text: "second done" },
    { toolCalls: [{ name: "write_file", input: { path: "f.txt", content: "x\n" } }] },
    { text: "third done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.write(SHIFT_TAB);
  await pty.waitFor("mode edits: file edits inside the workspace run without asking; commands ask");
  await pty.waitUntil("the status line", () => pty.screen().includes("mode edits"));
  pty.line("edit and run");
  await pty.waitFor("bash wants to run: touch t1");
  expect(readFileSync(join(cwd, "e.txt"), "utf8")).toBe("edited\n"); // written without a question
  expect(pty.screen()).not.toContain("write_file wants to");
  expect(pty.screen()).toContain("→ write_file e.txt");
  await pty.waitUntil("the bash question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("first done");
  await pty.waitForPrompt(2);

  pty.write(SHIFT_TAB);
  await pty.waitFor("auto mode runs commands without asking only inside the sandbox, and the sandbox is off");
  await pty.waitUntil("the status line", () => pty.screen().includes("mode auto (as edits: no sandbox)"));
  pty.line("run again");
  await pty.waitFor("bash wants to run: touch t2"); // still asks: no sandbox
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("second done");
  await pty.waitForPrompt(3);

  pty.write(SHIFT_TAB); // plan (spec/repl/pty-plan.test.ts), then back to ask
  await pty.waitFor("mode plan: ");
  pty.write(SHIFT_TAB);
  await pty.waitFor("mode ask: edits and commands ask first");
  pty.write("/mode ed" + KEYS.tab); // Tab completes the mode's name
  await pty.waitForInput("/mode edits");
  pty.write(KEYS.enter);
  await pty.waitFor("mode edits: file edits", { count: 2 });
  pty.line("/mode ask");
  await pty.waitFor("mode ask: edits and commands ask first", { count: 2 });
  pty.line("write more");
  await pty.waitFor("write_file wants to write: f.txt");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("third done");
}, 30_000);

test("--mode edits and config approvalMode start the loop in that mode; a bad mode is a usage error", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "m.txt", content: "m\n" } }] }, { text: "made" });
  const pty = await start({ baseURL: s.url, cwd, home: homeWithConfig({ approvalMode: "auto" }), args: ["--no-sandbox", "--mode", "edits"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("edits mode: file edits run without asking");
  expect(pty.screen()).toContain("mode edits");
  pty.line("make it");
  await pty.waitFor("made");
  expect(readFileSync(join(cwd, "m.txt"), "utf8")).toBe("m\n");

  const fromConfig = await start({ baseURL: s.url, cwd, home: homeWithConfig({ approvalMode: "auto" }), args: ["--no-sandbox"] });
  await fromConfig.waitForPrompt(1);
  expect(fromConfig.screen()).toContain("mode auto (as edits: no sandbox)");
  expect(fromConfig.screen()).toContain("auto behaves like edits");

  const bad = await start({ baseURL: s.url, cwd, args: ["--mode", "sometimes"] });
  expect(await bad.exited).toBe(2);
  expect(bad.screen()).toContain('--mode must be one of ask, edits, auto, not "sometimes"');
}, 30_000);

test("calls that cannot succeed fail without a question, and the model gets the tool's error", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
  const s = await serve(
    {
      toolCalls: [
        { name: "edit_file", input: { path: "a.txt", oldString: "three", newString: "3" } },
        { name: "write_file", input: { path: "/etc/shiro-test-hosts", content: "x" } },
        { name: "write_file", input: { path: ".env", content: "KEY=1" } },
      ],
    },
    { text: "none of that worked" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("try things");
  await pty.waitFor("none of that worked");
  expect(pty.screen()).not.toContain(" wants to ");
  const outputs = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(outputs).toContain("oldString was not found in a.txt");
  expect(outputs).toContain("is outside the workspace");
  expect(outputs).toContain(".env is a secrets file");
  expect(existsSync(join(cwd, ".env"))).toBe(false);
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\n");
}, 20_000);

test('"always" saved for this project is shown first, written to alwaysAllow in the user config, and honoured by the next session; every project goes to alwaysAllow', async () => {
  const cwd = tempDir("shiro-work-");
  const home = tempDir("shiro-home-");
  const configFile = join(home, ".shiro-neko", "config.json");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "git init -q" } }] },
    { text: "first reply" },
    { toolCalls: [{ name: "bash", input: { command: "git init -q two" } }] },
    { text: "second reply" },
    { toolCalls: [{ name: "write_file", input: { path: "w.txt", content: "w" } }] },
    { text: "third reply" },
  );
  const pty = await start({ baseURL: s.url, cwd, home, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("init");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("a");
  await pty.waitFor('to keep it, shiro writes "bash": ["git init *"] in ~/.shiro-neko/config.json:');
  await pty.waitFor(`this project: under projects.${JSON.stringify(cwd)}.alwaysAllow`);
  await pty.waitFor("every project: under alwaysAllow");
  await pty.waitUntil("the scope question", () => pty.cursorLine().startsWith("keep it? s (or enter, esc) this session only · p this project · e every project"));
  expect(existsSync(configFile)).toBe(false); // shown before anything is written
  pty.write("p");
  await pty.waitFor("saved");
  await pty.waitFor("first reply");
  expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ projects: { [cwd]: { alwaysAllow: { bash: ["git init *"] } } } });
  expect(existsSync(join(cwd, ".shiro"))).toBe(false);
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.exited;

  const next = await start({ baseURL: s.url, cwd, home, args: ["--no-sandbox"] });
  await next.waitForPrompt(1);
  next.line("init two");
  await next.waitFor("second reply");
  expect(next.screen()).not.toContain(" wants to ");
  expect(existsSync(join(cwd, "two", ".git"))).toBe(true);
  next.line("write");
  await next.waitUntil("the write question", () => next.cursorLine().startsWith("allow?"));
  next.write("a");
  await next.waitUntil("the scope question", () => next.cursorLine().startsWith("keep it?"));
  next.write("e");
  await next.waitFor("third reply");
  const saved = JSON.parse(readFileSync(configFile, "utf8"));
  expect(saved.alwaysAllow).toEqual({ write_file: ["*"] });
  expect(saved.permission).toBeUndefined();
  expect(saved.projects[cwd].alwaysAllow).toEqual({ bash: ["git init *"] });
}, 40_000);

test('a saved "always" never overrides the user\'s deny rule; a line with a substitution is offered no "always"', async () => {
  const cwd = tempDir("shiro-work-");
  const home = homeWithConfig({ permission: { bash: { "git init --bare*": "deny" } } });
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "git init -q" } }] },
    { text: "first reply" },
    { toolCalls: [{ name: "bash", input: { command: "git init --bare -q b" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch $(printf x)" } }] },
    { text: "second reply" },
  );
  const pty = await start({ baseURL: s.url, cwd, home, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("init");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once · a always (bash commands starting with `git init`)"));
  pty.write("a");
  await pty.waitUntil("the scope question", () => pty.cursorLine().startsWith("keep it?"));
  pty.write("e");
  await pty.waitFor("first reply");
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.exited;

  const next = await start({ baseURL: s.url, cwd, home, args: ["--no-sandbox"] });
  await next.waitForPrompt(1);
  next.line("more");
  await next.waitFor("bash wants to run: touch $(printf x)");
  await next.waitUntil("the compound question", () => next.cursorLine().startsWith("allow? y once · n deny · esc interrupts"));
  expect(existsSync(join(cwd, "b"))).toBe(false); // denied by the rule, not asked, not run
  expect(next.screen()).not.toContain("wants to run: git init --bare");
  expect(toolOutputsIn(s.requests[3]!.body).join("\n")).toContain("deny");
  next.write("a"); // not offered: ignored
  await Bun.sleep(300);
  expect(next.cursorLine()).toStartWith("allow? y once · n deny");
  expect(existsSync(join(cwd, "x"))).toBe(false);
  next.write("y");
  await next.waitFor("second reply");
  expect(existsSync(join(cwd, "x"))).toBe(true);
}, 40_000);

test("edits mode still asks before writing git's own files; without the sandbox a read outside the workspace asks", async () => {
  const cwd = tempDir("shiro-work-");
  const outside = tempDir("shiro-outside-");
  writeFileSync(join(outside, "secret.txt"), "top secret\n");
  mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "ok.txt", content: "ok\n" } }] },
    { toolCalls: [{ name: "write_file", input: { path: ".git/hooks/pre-commit", content: "#!/bin/sh\ntouch pwned\n" } }] },
    { toolCalls: [{ name: "bash", input: { command: `cat ${join(outside, "secret.txt")}` } }] },
    { text: "done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox", "--mode", "edits"] });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("write_file wants to write: .git/hooks/pre-commit");
  await pty.waitUntil("the hook question", () => pty.cursorLine().startsWith("allow?"));
  expect(readFileSync(join(cwd, "ok.txt"), "utf8")).toBe("ok\n"); // an ordinary edit ran unasked
  expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write(KEYS.enter);
  await pty.waitFor(`bash wants to run: cat ${join(outside, "secret.txt")}`);
  await pty.waitUntil("the read question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write(KEYS.enter);
  await pty.waitFor("done");
  expect(toolOutputsIn(s.requests[3]!.body).join("\n")).not.toContain("top secret");
}, 30_000);

test("the bell rings once when a question is waiting; config bell false keeps it quiet", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "touch b" } }] },
    { text: "rang" },
    { toolCalls: [{ name: "bash", input: { command: "touch c" } }] },
    { text: "quiet" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  expect(pty.raw()).not.toContain("\x07");
  pty.line("go");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  expect(pty.raw().split("\x07").length - 1).toBe(1);
  pty.write("y");
  await pty.waitFor("rang");

  const quiet = await start({ baseURL: s.url, cwd, home: homeWithConfig({ bell: false }), args: ["--no-sandbox"] });
  await quiet.waitForPrompt(1);
  quiet.line("go");
  await quiet.waitUntil("the question", () => quiet.cursorLine().startsWith("allow?"));
  quiet.write("y");
  await quiet.waitFor("quiet");
  expect(quiet.raw()).not.toContain("\x07");
}, 30_000);

test.skipIf(unavailable !== undefined)("auto in a working sandbox runs commands without asking; the guard still refuses", async () => {
  const top = visibleTempDir("shiro-pty-auto-");
  const cwd = join(top, "ws");
  const home = join(top, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "touch made.txt && echo made" } }] },
    { toolCalls: [{ name: "bash", input: { command: "rm -rf ~" } }] },
    { text: "auto done" },
  );
  const pty = await start({ baseURL: s.url, cwd, home, args: ["--mode", "auto"], env: SANDBOX_AS_THE_HOST_HAS_IT });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("mode auto");
  expect(pty.screen()).not.toContain("as edits");
  pty.line("make it");
  await pty.waitFor("auto done");
  expect(pty.screen()).not.toContain(" wants to ");
  expect(existsSync(join(cwd, "made.txt"))).toBe(true);
  expect(toolOutputsIn(s.requests[2]!.body).join("\n")).toContain("shiro's safety guard refused");
  expect(existsSync(home)).toBe(true);
}, 30_000);

test("with --yolo the status line says yolo, so a person never forgets nothing will ask", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd: tempDir("shiro-work-"), args: ["--no-sandbox", "--yolo"] });
  await pty.waitForPrompt(1);
  await pty.waitUntil("the status line", () => / · yolo\s*$/m.test(pty.screen()));
  expect(pty.screen()).not.toContain("mode ask");
});

test("the status line names an agent other than default and a thinking level other than the agent's own, and drops them when they go back", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd: tempDir("shiro-work-"), args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  const status = () => pty.screen().trimEnd().split("\n").at(-1)!.trim();
  await pty.waitUntil("the status line", () => status().startsWith("gpt-5-mini · ctx ~"));
  pty.line("/agent plan");
  await pty.waitFor("agent: plan (thinking high");
  await pty.waitUntil("the agent on the status line", () => status().startsWith("gpt-5-mini · agent plan · ctx ~"));
  pty.line("/think low");
  await pty.waitFor("thinking: low from the next prompt on.");
  await pty.waitUntil("the thinking level on the status line", () => status().startsWith("gpt-5-mini · agent plan · think low · ctx ~"));
  pty.line("/agent default");
  await pty.waitUntil("only the thinking level left", () => status().startsWith("gpt-5-mini · think low · ctx ~"));
  pty.line("/think medium");
  await pty.waitUntil("back to the plain line", () => status().startsWith("gpt-5-mini · ctx ~"));
  expect(s.requests.length).toBe(0);
});

test("shift-tab at a question: a mode that runs the call without asking lets it run; one that would still ask leaves the question", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "e.txt", content: "edited\n" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch t1" } }] },
    { text: "all done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("edit and touch");
  await pty.waitFor("write_file wants to write: e.txt (new file)");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  // ask → edits: edits mode runs file edits unasked, so this one runs.
  pty.write(SHIFT_TAB);
  await pty.waitFor("allowed: edits mode runs it without asking");
  await pty.waitFor("bash wants to run: touch t1");
  expect(readFileSync(join(cwd, "e.txt"), "utf8")).toBe("edited\n");
  await pty.waitUntil("the next question", () => pty.cursorLine().startsWith("allow?"));
  // edits → auto: without a sandbox auto behaves as edits, so the command still asks.
  pty.write(SHIFT_TAB);
  await pty.waitFor("mode auto, as edits");
  await Bun.sleep(200);
  expect(pty.cursorLine()).toStartWith("allow?");
  expect(existsSync(join(cwd, "t1"))).toBe(false);
  pty.write("y");
  await pty.waitFor("all done");
  expect(existsSync(join(cwd, "t1"))).toBe(true);
}, 20_000);
