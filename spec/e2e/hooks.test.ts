// Hooks through the binary, headless, as a Claude Code user's scripts would run: a validator that
// blocks, an allow that skips only the question, a formatter after an edit, a Stop hook that keeps
// the turn going, prompt and session-start context, a hook that hangs, a project's hooks file.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { lastUserTextIn, toolOutputsIn, WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

function homeWithHooks(hooks: unknown, extra: Record<string, unknown> = {}): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ hooks, ...extra }));
  return home;
}

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const on = (matcher: string, command: string, timeout?: number) => [{ matcher, hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }] }];

for (const { wire, flags } of WIRES) {
  describe(`hooks over ${wire}`, () => {
    test("a Bash validator that exits 2 blocks the command, and the model reads its reason", async () => {
      const work = tempDir();
      const tools = tempDir();
      const validator = script(tools, "no-push.sh", `cmd=$(cat | sed -n 's/.*"command":"\\([^"]*\\)".*/\\1/p')\ncase "$cmd" in *"git push"*) echo "no pushes to main; open a pull request" >&2; exit 2;; esac\nexit 0`);
      const home = homeWithHooks({ PreToolUse: on("Bash", validator) });
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "git push origin main && touch pushed" } }] }, { text: "ok, no push" });
      const run = await runShiro(["-p", "ship it", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("no pushes to main; open a pull request");
      expect(existsSync(join(work, "pushed"))).toBe(false);
      const hook = jsonLines(run.stdout).find((l) => l.type === "hook");
      expect(hook).toMatchObject({ type: "hook", event: "PreToolUse", tool: "Bash", command: validator, exitCode: 2, decision: "deny" });
      expect(typeof hook!.durationMs).toBe("number");
    });

    test("permissionDecision allow skips the question (headless: runs without --yolo), but never the guard", async () => {
      const work = tempDir();
      const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted"}}'`;
      const home = homeWithHooks({ PreToolUse: on("Bash", allow) });
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "touch made-by-allow" } }] },
        { toolCalls: [{ name: "bash", input: { command: "rm -rf ~" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(existsSync(join(work, "made-by-allow"))).toBe(true);
      expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual(["rm -rf ~"]);
      expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toContain("safety guard refused");
    });

    test("updatedInput changes the call, which is judged again; ask is a refusal headless, even with --yolo", async () => {
      const work = tempDir();
      const rewrite = `grep -q 'touch a' && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch b"}}}' || echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"c needs a person"}}'`;
      const home = homeWithHooks({ PreToolUse: on("Bash", rewrite) });
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch a" } }] }, { toolCalls: [{ name: "bash", input: { command: "touch c" } }] }, { text: "done" });
      const run = await runShiro(["-p", "go", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect([existsSync(join(work, "a")), existsSync(join(work, "b")), existsSync(join(work, "c"))]).toEqual([false, true, false]);
      expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual(["touch c"]);
    });

    test("a PostToolUse formatter rewrites the file after edit_file, and the model sees what it said", async () => {
      const work = tempDir();
      writeFileSync(join(work, "a.txt"), "hello world\n");
      const fmt = `f=$(cat | sed -n 's/.*"file_path":"\\([^"]*\\)".*/\\1/p'); tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted by the upper-caser"}}'`;
      const home = homeWithHooks({ PostToolUse: on("Edit|Write", fmt) });
      const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "world", newString: "there" } }] }, { text: "edited" });
      const run = await runShiro(["-p", "edit", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(readFileSync(join(work, "a.txt"), "utf8")).toBe("HELLO THERE\n");
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("formatted by the upper-caser");
      // The formatter's rewrite is part of the edit: undo takes both back, with no question.
      const undo = await runShiro(["undo"], { cwd: work, home });
      expect(undo.code).toBe(0);
      expect(readFileSync(join(work, "a.txt"), "utf8")).toBe("hello world\n");
    });

    test("a Stop hook keeps the turn going until its check passes, then lets it end", async () => {
      const work = tempDir();
      const check = `test -f "$SHIRO_PROJECT_DIR/tests-pass" || { echo "the tests fail: create tests-pass" >&2; exit 2; }`;
      const home = homeWithHooks({ Stop: [{ hooks: [{ type: "command", command: check }] }] });
      const s = await serve(
        { text: "I think it is done." },
        { toolCalls: [{ name: "write_file", input: { path: "tests-pass", content: "ok\n" } }] },
        { text: "now the tests pass" },
      );
      const run = await runShiro(["-p", "fix the tests", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      expect(lastUserTextIn(s.requests[1]!.body)).toContain("the tests fail: create tests-pass");
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", status: "success", text: "now the tests pass" });
    });

    test("a Stop hook that never lets go is bounded, and says so", async () => {
      const home = homeWithHooks({ Stop: [{ hooks: [{ type: "command", command: "echo 'not yet' >&2; exit 2" }] }] }, { maxStopHookBlocks: 2 });
      const s = await serve({ text: "one" }, { text: "two" }, { text: "three" });
      const run = await runShiro(["-p", "go", ...flags], { baseURL: s.url, home });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      expect(run.stderr).toContain("Stop hooks kept the turn going 2 times in a row; it ends here");
    });

    test("UserPromptSubmit adds context to the prompt, SessionStart's reaches the first request; a block sends nothing", async () => {
      const home = homeWithHooks({
        SessionStart: on("startup", "echo 'ticket ABC-1: the login page'"),
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `grep -q secret-plan && { echo 'prompts about the secret plan are not sent' >&2; exit 2; }; echo 'branch: feature/login'` }] }],
      });
      const s = await serve({ text: "looking" });
      const run = await runShiro(["-p", "fix the login", ...flags], { baseURL: s.url, home });
      expect(run.code).toBe(0);
      const sent = lastUserTextIn(s.requests[0]!.body)!;
      expect(sent).toContain("fix the login");
      expect(sent).toContain("ticket ABC-1: the login page");
      expect(sent).toContain("branch: feature/login");

      const none = await serve();
      const blocked = await runShiro(["-p", "tell me the secret-plan", ...flags], { baseURL: none.url, home });
      expect(none.requests).toHaveLength(0);
      expect(blocked.stderr).toContain("the prompt was not sent: prompts about the secret plan are not sent");
    });

    test("a hook that hangs is stopped at its timeout, said in one line, and the call goes on", async () => {
      const work = tempDir();
      const home = homeWithHooks({ PreToolUse: on("Bash", "sleep 30", 1) });
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch ran" } }] }, { text: "done" });
      const run = await runShiro(["-p", "go", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(existsSync(join(work, "ran"))).toBe(true);
      expect(run.stderr).toContain('hook PreToolUse "sleep 30" timed out after 1s and was stopped');
    });
  });
}

describe("hooks inside subagents, and the hooks' environment", () => {
  test("tool events fire inside a subagent with its agent_id and agent_type; SubagentStop runs when it ends", async () => {
    const work = tempDir();
    writeFileSync(join(work, "notes.md"), "the pager lives in page.ts\n");
    const log = join(tempDir(), "events.log");
    const home = homeWithHooks({
      PreToolUse: on("Read", `cat >> ${log}; echo >> ${log}`),
      SubagentStop: [{ hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}` }] }],
    });
    const s = await serve(
      { toolCalls: [{ name: "task", input: { description: "find the pager", prompt: "Find the pager." } }] },
      { toolCalls: [{ name: "read_file", input: { path: "notes.md" } }], when: { firstUser: "Find the pager." } },
      { text: "page.ts", when: { firstUser: "Find the pager." } },
      { text: "It is in page.ts." },
    );
    const run = await runShiro(["-p", "where?", "--json"], { baseURL: s.url, cwd: work, home });
    expect(run.code).toBe(0);
    const events = readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    expect(events.map((e) => e.hook_event_name)).toEqual(["PreToolUse", "SubagentStop"]);
    expect(events[0]).toMatchObject({ tool_name: "Read", agent_type: "explore", tool_input: { file_path: join(work, "notes.md") } });
    expect(events[1]).toMatchObject({ agent_type: "explore", last_assistant_message: "page.ts", stop_hook_active: false });
  });

  test("a hook runs with the user's environment but never the API key, and with the project directory", async () => {
    const work = tempDir();
    const dump = join(tempDir(), "env.txt");
    const home = homeWithHooks({ SessionStart: on("*", `env > ${dump}`) });
    const s = await serve({ text: "hi" });
    const key = "sk-test-hooks-0123456789abcdef";
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work, home, env: { SHIRO_API_KEY: key, MY_SETTING: "kept" } });
    expect(run.code).toBe(0);
    const env = readFileSync(dump, "utf8");
    expect(env).not.toContain(key);
    expect(env).toContain("MY_SETTING=kept");
    expect(env).toContain(`SHIRO_PROJECT_DIR=${work}`);
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${work}`);
  });
});

describe("PreCompact when pruning cuts the wire", () => {
  test("automatic pruning tells PreCompact hooks once per turn, with trigger auto; it cannot be blocked", async () => {
    const work = tempDir();
    for (let i = 0; i < 4; i++) writeFileSync(join(work, `part${i}.txt`), `part ${i}\n`.repeat(400));
    const seen = join(tempDir(), "precompact.log");
    const home = homeWithHooks({ PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: `cat >> ${seen}; echo >> ${seen}; exit 2` }] }] });
    const replies = Array.from({ length: 8 }, (_, i) => ({ toolCalls: [{ name: "read_file", input: { path: `part${i % 4}.txt` } }] }));
    const s = await serve(...replies, { text: "all read" });
    const run = await runShiro(["-p", "read every part", "--json", "--max-steps", "20"], { baseURL: s.url, cwd: work, home, env: { SHIRO_COMPACT_AT: "3000" } });
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ status: "success", text: "all read" });
    for (let i = 0; i < 30 && !existsSync(seen); i++) await Bun.sleep(100);
    const calls = readFileSync(seen, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto" });
  });
});

describe("a project's hooks and a broken hooks config", () => {
  test("headless does not run a project's .shiro/settings.json until told to trust it", async () => {
    const work = tempDir();
    mkdirSync(join(work, ".shiro"));
    writeFileSync(join(work, ".shiro", "settings.json"), JSON.stringify({ hooks: { SessionStart: on("*", "touch project-hook-ran") } }));
    const s = await serve({ text: "a" }, { text: "b" });
    const first = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work });
    expect(existsSync(join(work, "project-hook-ran"))).toBe(false);
    expect(first.stderr).toContain('.shiro/settings.json has hooks you have not trusted, so they do not run: "touch project-hook-ran"');
    await runShiro(["-p", "hi", "--trust-project-hooks"], { baseURL: s.url, cwd: work });
    expect(existsSync(join(work, "project-hook-ran"))).toBe(true);
  });

  test("a matcher that is no regular expression is a config error with exit 2; --no-hooks runs none", async () => {
    const home = homeWithHooks({ PreToolUse: on("Bash(", "true") });
    const unused = await serve();
    const run = await runShiro(["-p", "hi"], { baseURL: unused.url, home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('hooks.PreToolUse[0]: matcher "Bash(" is not a valid regular expression');
    const work = tempDir();
    const off = homeWithHooks({ SessionStart: on("*", "touch hook-ran") });
    const s = await serve({ text: "a" });
    expect((await runShiro(["-p", "hi", "--no-hooks"], { baseURL: s.url, cwd: work, home: off })).code).toBe(0);
    expect(existsSync(join(work, "hook-ran"))).toBe(false);
  });
});
