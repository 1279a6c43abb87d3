import { describe, expect, test } from "bun:test";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { describeToolInput, describeToolOutcome, digestOf, digestToolCall as digestWith, toolsByName } from "../../lib/prune/digest.ts";
import { rollUpDigests } from "../../lib/prune/digest-rollup.ts";
import { INTERRUPTED_RESULT } from "../../lib/prune/repair.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";
import { bunTest, realisticCall, rng } from "./fixtures.ts";

const text = (value: string) => ({ output: { type: "text" as const, value } });
const toolNamed = toolsByName(toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: tempDir(), projectRoot: tempDir() }) }));
/** The digest as a session makes it: with the definition of the tool called. */
const digestToolCall = (call: { toolName: string; input: unknown }, result?: Parameters<typeof digestWith>[1]) => digestWith(call, result, toolNamed(call.toolName));

describe("digestToolCall", () => {
  test("a git call reads as its path and operation; a call to the old git_* tools of a saved session still digests", () => {
    expect(digestToolCall({ toolName: "git", input: { op: "blame", path: "src/a.ts", startLine: 2, endLine: 9 } }, text("a\nb"))).toBe("git blame src/a.ts lines 2-9 → 2 lines");
    expect(digestToolCall({ toolName: "git", input: { op: "show", ref: "HEAD~1" } }, text("commit 1\nx"))).toBe("git show HEAD~1 → 2 lines");
    expect(digestToolCall({ toolName: "git", input: { path: "a" } }, text("x"))).toBe("git ? a → x");
    expect(toolNamed("git_status")).toBeUndefined();
    expect(digestToolCall({ toolName: "git_log", input: { path: "src", limit: 5 } }, text("abc 2026-01-01 a: x\ndef 2026-01-01 a: y"))).toBe('git_log "src" → 2 lines');
  });

  test("a failing test run: command, exit code and counts", () => {
    const call = bunTest(12, 3);
    expect(digestToolCall({ toolName: call.name, input: call.input }, text(call.output))).toBe('bash "bun test" → exit 1, 3 failures, 12 passed');
    const green = bunTest(15, 0);
    expect(digestToolCall({ toolName: green.name, input: green.input }, text(green.output))).toBe('bash "bun test" → exit 0, 0 failures, 15 passed');
  });

  test("a command without test counts: exit code and output size, with the first error line", () => {
    expect(digestToolCall({ toolName: "bash", input: { command: "ls" } }, text("Exit code 0\na\nb\nc"))).toBe('bash "ls" → exit 0, 3 lines of output');
    expect(digestToolCall({ toolName: "bash", input: { command: "cat x" } }, text("Exit code 1\ncat: x: No such file or directory"))).toBe(
      'bash "cat x" → exit 1, 1 line of output, cat: x: No such file or directory',
    );
    expect(digestToolCall({ toolName: "bash", input: { command: "true" } }, text("Exit code 0\n(no output)"))).toBe('bash "true" → exit 0, no output');
    expect(digestToolCall({ toolName: "bash", input: { command: "tsc" } }, text("Exit code 2\na.ts(1,1): error TS1: x\nb.ts(2,2): error TS2: y\nFound 2 errors."))).toBe(
      'bash "tsc" → exit 2, 2 errors',
    );
  });

  test("timeouts, signals and interruptions from the bash tool", () => {
    const bash = { toolName: "bash", input: { command: "bun run dev" } };
    expect(digestToolCall(bash, text("Command timed out after 120s; it was killed with every process it started. Its effects are unknown.\n(no output)"))).toBe(
      'bash "bun run dev" → timed out after 120s, no output',
    );
    expect(digestToolCall(bash, text("Killed by SIGKILL.\nout"))).toBe('bash "bun run dev" → killed by SIGKILL, 1 line of output');
    expect(digestToolCall(bash, text("Interrupted by the user; the command was killed.\n(no output)"))).toBe('bash "bun run dev" → interrupted, no output');
  });

  test("a command that became a background job keeps its job's number", () => {
    const bash = { toolName: "bash", input: { command: "bun run dev", background: true } };
    expect(digestToolCall(bash, text("Running in the background as job 3. Read its new output or stop it with the jobs tool.\nlistening on 3000"))).toBe(
      'bash "bun run dev" → background job 3, 1 line of output',
    );
  });

  test("file tools: path and the tool's own one-line outcome, or a count", () => {
    expect(digestToolCall({ toolName: "edit_file", input: { path: "src/a.ts", oldString: "a", newString: "b" } }, text("Edited src/a.ts: replaced 1 occurrence (+1 -1 lines)."))).toBe(
      "edit_file src/a.ts → Edited src/a.ts: replaced 1 occurrence (+1 -1 lines).",
    );
    expect(digestToolCall({ toolName: "read_file", input: { path: "src/a.ts", offset: 200 } }, text("200\ta\n201\tb\n202\tc"))).toBe("read_file src/a.ts from line 200 → 3 lines");
    expect(digestToolCall({ toolName: "grep", input: { pattern: "pageSize", path: "src" } }, text("src/a.ts:1: x\nsrc/b.ts:2: y"))).toBe('grep "pageSize" in src → 2 matches');
    expect(digestToolCall({ toolName: "grep", input: { pattern: "nope" } }, text('No matches for "nope" in ..'))).toBe('grep "nope" → No matches for "nope" in ..');
    expect(digestToolCall({ toolName: "glob", input: { pattern: "**/*.ts" } }, text("a.ts\nb.ts\n\n[output truncated: 10 more characters not shown.]"))).toBe(
      'glob "**/*.ts" → 2 files (truncated)',
    );
    expect(digestToolCall({ toolName: "multi_edit", input: { path: "a.ts", edits: [{}, {}] } }, text("Edited a.ts: applied 2 edits."))).toBe("multi_edit a.ts (2 edits) → Edited a.ts: applied 2 edits.");
  });

  test("errors, denials, refusals, interruptions and missing results", () => {
    const edit = { toolName: "edit_file", input: { path: "a.ts" } };
    expect(digestToolCall(edit, { output: { type: "error-text", value: "edit_file: oldString was not found in a.ts.\nmore" } })).toBe(
      "edit_file a.ts → error: edit_file: oldString was not found in a.ts.",
    );
    expect(digestToolCall(edit, { output: { type: "error-text", value: INTERRUPTED_RESULT } })).toBe("edit_file a.ts → interrupted before it finished");
    expect(digestToolCall(edit, { output: { type: "execution-denied", reason: "user said no" } })).toBe("edit_file a.ts → denied: user said no");
    expect(digestToolCall(edit, text("Not run: the user denied it"))).toBe("edit_file a.ts → not run: the user denied it");
    expect(digestToolCall(edit)).toBe("edit_file a.ts → no result");
  });

  test("the task list and memory tools: the subject their definitions give, with its note", () => {
    expect(digestToolCall({ toolName: "remember", input: { kind: "gotcha", text: "migrate before seed" } }, text("Remembered."))).toBe(
      'remember "migrate before seed" (gotcha) → Remembered.',
    );
    expect(digestToolCall({ toolName: "todo_write", input: { todos: [1, 2, 3] } }, text("ok"))).toBe('todo_write "3 tasks" → ok');
    expect(digestToolCall({ toolName: "recall", input: { query: "seed order" } }, text("Nothing matches."))).toBe('recall "seed order" → Nothing matches.');
    expect(digestToolCall({ toolName: "list_dir", input: {} }, text("./\n  a.ts\n  b/"))).toBe("list_dir . → 3 entries");
  });

  test("a tool with no definition at hand (an old session's, a made-up name) reads by its first string argument", () => {
    expect(digestWith({ toolName: "mystery", input: null }, { output: { type: "json", value: { ok: true } } })).toBe('mystery → {"ok":true}');
    expect(digestWith({ toolName: "deploy", input: { target: "prod", dryRun: false } }, text("Deployed."))).toBe('deploy "prod" → Deployed.');
    expect(describeToolInput({ command: "a\n  b" })).toBe('"a b"');
    expect(digestWith({ toolName: "grep", input: { pattern: "x" } }, text("a:1: x\nb:2: x"))).toBe('grep "x" → 2 lines');
  });

  test("a result's size counts its lines with content: blank, whitespace-only and bracketed note lines are not", () => {
    const output = "200\ta\n\n   \t\n\u00a0\u3000\n[output truncated: 40 more lines]\n201\t[b]\n\u2028x\n \n202\tc\n";
    expect(digestToolCall({ toolName: "read_file", input: { path: "src/a.ts" } }, text(output))).toBe("read_file src/a.ts → 4 lines (truncated)");
  });

  test("arguments replaced by a note are quoted as they are", () => {
    expect(digestToolCall({ toolName: "bash", input: "[arguments nested too deep; not kept]" }, text("Exit code 0\nok"))).toBe(
      'bash "[arguments nested too deep; not kept]" → exit 0, 1 line of output',
    );
  });

  test("bounded: long commands and outcomes are clipped to one short line", () => {
    const line = digestToolCall({ toolName: "bash", input: { command: "echo " + "x".repeat(500) } }, text("Exit code 0\n" + "y".repeat(10_000)));
    expect(line).not.toContain("\n");
    expect(line.length).toBeLessThan(200);
    expect(describeToolOutcome({ type: "text", value: "z".repeat(1000) }, toolNamed("edit_file"))).toBe("1 line");
    expect(describeToolOutcome({ type: "text", value: "1\tconst a = 1;" }, toolNamed("read_file"))).toBe("1 line");
  });

  test("deterministic and short for every realistic call", () => {
    const rand = rng(42);
    for (let i = 0; i < 500; i++) {
      const call = realisticCall(rand, 3000);
      const result = call.error ? { output: { type: "error-text" as const, value: call.output } } : text(call.output);
      const line = digestToolCall({ toolName: call.name, input: call.input }, result);
      expect(digestToolCall({ toolName: call.name, input: call.input }, result)).toBe(line);
      expect(line.startsWith(call.name)).toBe(true);
      expect(line.length).toBeLessThan(200);
    }
  });
});

describe("rollUpDigests", () => {
  const d = (tool: string, subject: string, outcome: string) =>
    digestOf({ toolName: tool, input: tool === "bash" ? { command: subject } : { path: subject } }, { output: { type: "text", value: outcome } }, toolNamed(tool));

  test("counts per tool, failures, and the paths file-changing tools touched (most touched first)", () => {
    const digests = [
      d("read_file", "src/a.ts", "1\tx\n2\ty"),
      d("edit_file", "src/b.ts", "Edited src/b.ts: replaced 1 occurrence."),
      d("bash", "bun test", "Exit code 1\n 3 fail"),
      d("edit_file", "src/c.ts", "Edited src/c.ts."),
      d("edit_file", "src/c.ts", "Edited src/c.ts."),
      d("bash", "ls", "Exit code 0\na"),
      d("bash", "bun test", "Exit code 0\n 0 fail"),
    ];
    expect(rollUpDigests(digests)).toBe("7 earlier calls, condensed: edit_file ×3 on 2 paths (src/c.ts, src/b.ts), bash ×3 (1 failed), read_file ×1");
  });

  test("the paths listed are those of mutating path tools, by their definitions: not todo_write's task counts", () => {
    // The old name match (/edit|write|…/) took todo_write for a file tool and listed "3 tasks" as a path.
    const todos = digestOf({ toolName: "todo_write", input: { todos: [1, 2, 3] } }, { output: { type: "text", value: "ok" } }, toolNamed("todo_write"));
    const multi = digestOf({ toolName: "multi_edit", input: { path: "a.ts", edits: [{}, {}] } }, { output: { type: "text", value: "Edited a.ts." } }, toolNamed("multi_edit"));
    const read = digestOf({ toolName: "read_file", input: { path: "b.ts", offset: 5 } }, { output: { type: "text", value: "5\tx" } }, toolNamed("read_file"));
    expect(rollUpDigests([todos, multi, read])).toBe("3 earlier calls, condensed: todo_write ×1, multi_edit ×1 on 1 path (a.ts), read_file ×1");
  });

  test("bounded whatever the number of calls and tools", () => {
    const many = Array.from({ length: 5_000 }, (_, i) => d(`tool_${i % 40}`, `src/file${i}.ts`, "ok"));
    many.push(...Array.from({ length: 500 }, (_, i) => d("write_file", `src/new${i}.ts`, "Created.")));
    const line = rollUpDigests(many);
    expect(line).toStartWith("5,500 earlier calls, condensed: write_file ×500 on 500 paths (src/new0.ts, src/new1.ts, src/new2.ts, src/new3.ts, src/new4.ts, …)");
    expect(line).toEndWith("calls to 31 other tools");
    expect(line.length).toBeLessThan(600);
  });
});
