// Hooks as Claude Code's scripts expect them: which commands an event runs, what they get on
// stdin, and how their exit codes and JSON are read. Real commands through /bin/sh.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Hooks, type HookRunRecord } from "../../lib/hooks/hooks.ts";
import { matcherMatches } from "../../lib/hooks/matcher.ts";
import { buildHookTable } from "../../lib/hooks/table.ts";
import { hookToolCalls } from "../../lib/hooks/claude-tools.ts";
import type { HooksConfig } from "../../lib/config/hooks-schema.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

function hooksFor(config: HooksConfig, cwd = makeTempDir("shiro-hooks-")) {
  const built = buildHookTable([{ origin: "user config", hooks: config }]);
  const runs: HookRunRecord[] = [];
  const inner = new Hooks(built.table, { sessionId: () => "s-1", transcriptPath: () => join(cwd, "s-1.json"), cwd, permissionMode: () => "default", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SHIRO_PROJECT_DIR: cwd } });
  const hooks = { fire: (...[event, fields, options]: Parameters<Hooks["fire"]>) => inner.fire(event, fields, { ...options, onRun: (run) => runs.push(run) }) };
  return { hooks, runs, built, cwd };
}
const cmd = (command: string, timeout?: number) => ({ type: "command", command, ...(timeout ? { timeout } : {}) });

describe("matchers, as Claude Code reads them", () => {
  test("a name list matches exact names only; anything else is an unanchored regular expression", () => {
    expect(matcherMatches("Edit|Write", ["Write", "write_file"])).toBe(true);
    expect(matcherMatches("Edit, Write", ["Edit"])).toBe(true);
    expect(matcherMatches("Edit", ["MultiEdit"])).toBe(false);
    expect(matcherMatches("mcp__.*", ["mcp__github__search"])).toBe(true);
    expect(matcherMatches("^Bash$", ["Bash"])).toBe(true);
    expect(matcherMatches("bash", ["Bash", "bash"])).toBe(true); // shiro's own spelling matches too
    expect(matcherMatches("", ["anything"])).toBe(true);
    expect(matcherMatches("*", ["anything"])).toBe(true);
  });

  test("a matcher that is not a regular expression is a config error; an unknown event and a prompt hook are announced", () => {
    const built = buildHookTable([
      { origin: "user config", hooks: { PreToolUse: [{ matcher: "Bash(", hooks: [cmd("true")] }], PermissionRequest: [{ hooks: [cmd("true")] }], Stop: [{ hooks: [{ type: "prompt", prompt: "x" }, { type: "command", command: "true", async: true }] }] } as HooksConfig },
    ]);
    expect(built.errors).toEqual([expect.stringContaining('hooks.PreToolUse[0]: matcher "Bash(" is not a valid regular expression')]);
    expect(built.notices.join("\n")).toContain("shiro has no PermissionRequest event");
    expect(built.notices.join("\n")).toContain('Stop has a "prompt" hook; shiro runs only "command" hooks');
    expect(built.notices.join("\n")).toContain('"async" in a Stop hook is not supported');
    expect(built.table.get("Stop")?.map((c) => c.command)).toEqual(["true"]);
  });
});

describe("running an event's hooks", () => {
  test("each hook gets one JSON object on stdin with the common fields and the event's own", async () => {
    const { hooks, cwd } = hooksFor({ PreToolUse: [{ matcher: "Bash", hooks: [cmd('cat > "$SHIRO_PROJECT_DIR/in.json"')] }] });
    await hooks.fire("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "c1" }, { names: ["Bash", "bash"] });
    const input = JSON.parse(readFileSync(join(cwd, "in.json"), "utf8"));
    expect(input).toEqual({ session_id: "s-1", transcript_path: join(cwd, "s-1.json"), cwd, hook_event_name: "PreToolUse", permission_mode: "default", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "c1" });
  });

  test("only matching groups run, and a command in two matching groups runs once", async () => {
    const { hooks, cwd } = hooksFor({
      PreToolUse: [
        { matcher: "Edit|Write", hooks: [cmd('echo x >> "$SHIRO_PROJECT_DIR/count"')] },
        { matcher: "Write", hooks: [cmd('echo x >> "$SHIRO_PROJECT_DIR/count"')] },
        { matcher: "Bash", hooks: [cmd('touch "$SHIRO_PROJECT_DIR/bash-ran"')] },
      ],
    });
    await hooks.fire("PreToolUse", { tool_name: "Write" }, { names: ["Write", "write_file"] });
    expect(readFileSync(join(cwd, "count"), "utf8")).toBe("x\n");
    expect(existsSync(join(cwd, "bash-ran"))).toBe(false);
  });

  test("exit 2 blocks with stderr as the reason, and wins over a JSON allow", async () => {
    const { hooks } = hooksFor({
      PreToolUse: [{ hooks: [cmd(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'; echo 'no pushes to main' >&2; exit 2`)] }],
    });
    const outcome = await hooks.fire("PreToolUse", { tool_name: "Bash" }, { names: ["Bash"] });
    expect(outcome.blocked).toBe(true);
    expect(outcome.permission).toBe("deny");
    expect(outcome.reasons).toEqual(["no pushes to main"]);
  });

  test("across hooks of one event, deny beats ask beats allow; the allowing hook's changed input is kept unless one denies", async () => {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}'`;
    const ask = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check it"}}'`;
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"never"}}'`;
    const twoOf = async (...commands: string[]) => (await hooksFor({ PreToolUse: [{ hooks: commands.map((c) => cmd(c)) }] }).hooks.fire("PreToolUse", { tool_name: "Bash" }, { names: ["Bash"] }));
    const allowAsk = await twoOf(allow, ask);
    expect([allowAsk.permission, allowAsk.permissionReason, allowAsk.updatedInput]).toEqual(["ask", "check it", { command: "ls -la" }]);
    const allowDeny = await twoOf(allow, deny);
    expect([allowDeny.permission, allowDeny.permissionReason, allowDeny.updatedInput]).toEqual(["deny", "never", undefined]);
  });

  test("the older decision: approve | block of PreToolUse is read too", async () => {
    const { hooks } = hooksFor({ PreToolUse: [{ hooks: [cmd(`echo '{"decision":"block","reason":"old style"}'`)] }] });
    const outcome = await hooks.fire("PreToolUse", { tool_name: "Bash" }, { names: ["Bash"] });
    expect([outcome.permission, outcome.reasons]).toEqual(["deny", ["old style"]]);
  });

  test("SessionStart and UserPromptSubmit stdout is context; another exit code is a one-line error that blocks nothing", async () => {
    const { hooks } = hooksFor({ SessionStart: [{ matcher: "startup", hooks: [cmd("echo 'ticket ABC-1: fix the login'"), cmd("echo 'boom' >&2; exit 1")] }] });
    const outcome = await hooks.fire("SessionStart", { source: "startup" });
    expect(outcome.context).toEqual(["ticket ABC-1: fix the login"]);
    expect(outcome.blocked).toBe(false);
    expect(outcome.errors).toEqual(['hook SessionStart "echo \'boom\' >&2; exit 1" failed (exit 1): boom']);
    expect((await hooks.fire("SessionStart", { source: "resume" })).verdicts).toEqual([]); // the matcher reads source
  });

  test("continue: false stops, with its reason; systemMessage reaches the user", async () => {
    const { hooks } = hooksFor({ Stop: [{ hooks: [cmd(`echo '{"continue":false,"stopReason":"budget spent","systemMessage":"see you"}'`)] }] });
    const outcome = await hooks.fire("Stop", { stop_hook_active: false });
    expect(outcome.stop).toEqual({ reason: "budget spent" });
    expect(outcome.systemMessages).toEqual(["see you"]);
  });

  test("a hook that hangs is killed with everything it started at its timeout, and blocks nothing", async () => {
    const { hooks, runs, cwd } = hooksFor({ PreToolUse: [{ hooks: [cmd(`(sleep 29.7; touch "$SHIRO_PROJECT_DIR/child-lived") & sleep 29.7; exit 2`, 1)] }] });
    const outcome = await hooks.fire("PreToolUse", { tool_name: "Bash" }, { names: ["Bash"] });
    expect(outcome.blocked).toBe(false);
    expect(outcome.errors).toEqual([expect.stringContaining("timed out after 1s and was stopped")]);
    expect(runs[0]).toMatchObject({ event: "PreToolUse", exitCode: null, decision: "error" });
    const ps = Bun.spawnSync(["sh", "-c", `ps -eo args | grep -c "[s]leep 29.7" || true`]).stdout.toString().trim();
    expect(ps).toBe("0");
    expect(existsSync(join(cwd, "child-lived"))).toBe(false);
  });

  test("a hook that leaves a process holding its output open does not keep the event waiting", async () => {
    const { hooks } = hooksFor({ PostToolUse: [{ hooks: [cmd("setsid sleep 5 & echo done")] }] });
    const started = Date.now();
    const outcome = await hooks.fire("PostToolUse", { tool_name: "Bash" }, { names: ["Bash"] });
    expect(outcome.errors).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe("tool events under Claude Code's names and shapes", () => {
  const ws = "/w";
  test("the tools Claude Code has reach hooks under its names, paths absolute", () => {
    expect(hookToolCalls("edit_file", { path: "src/a.ts", oldString: "a", newString: "b" }, ws)).toMatchObject([
      { toolName: "Edit", names: ["Edit", "edit_file"], input: { file_path: "/w/src/a.ts", old_string: "a", new_string: "b" } },
    ]);
    expect(hookToolCalls("bash", { command: "ls" }, ws)[0]).toMatchObject({ toolName: "Bash", input: { command: "ls" } });
    expect(hookToolCalls("mcp__gh__search", { q: "x" }, ws)[0]).toMatchObject({ toolName: "mcp__gh__search", names: ["mcp__gh__search"] });
  });

  test("an updated input in Claude Code's shape comes back in shiro's", () => {
    const [edit] = hookToolCalls("edit_file", { path: "a.ts", oldString: "a", newString: "b" }, ws);
    expect(edit!.toShiro!({ file_path: "/w/a.ts", old_string: "a", new_string: "c" })).toEqual({ path: "/w/a.ts", oldString: "a", newString: "c" });
  });

  test("apply_patch, move_file and delete_file make one Write or Edit per file they touch", () => {
    const patch = "*** Begin Patch\n*** Add File: new.ts\n+x\n*** Update File: old.ts\n@@\n-a\n+b\n*** Delete File: gone.ts\n*** End Patch";
    expect(hookToolCalls("apply_patch", { input: patch }, ws).map((c) => [c.toolName, c.input.file_path])).toEqual([
      ["Write", "/w/new.ts"],
      ["Edit", "/w/old.ts"],
      ["Edit", "/w/gone.ts"],
    ]);
    expect(hookToolCalls("move_file", { from: "a", to: "b" }, ws).map((c) => [c.toolName, c.input.file_path])).toEqual([
      ["Write", "/w/b"],
      ["Edit", "/w/a"],
    ]);
    expect(hookToolCalls("delete_file", { path: "x" }, ws).map((c) => c.toolName)).toEqual(["Edit"]);
  });
});
