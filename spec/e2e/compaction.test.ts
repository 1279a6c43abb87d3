import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, shiroCommand, tempDir } from "../support/cli.ts";
import { HOST_INDEPENDENT_ENV } from "../support/host-tools.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

const THRESHOLD = 6_000;
/** Estimated tokens of what a request carried as history. */
const wireTokens = (body: any) => JSON.stringify(body.input ?? body.messages).length / 4;

function bigWorkspace() {
  const work = tempDir();
  for (let i = 0; i < 4; i++) writeFileSync(join(work, `part${i}.txt`), Array.from({ length: 150 }, (_, n) => `line ${n} of part ${i}: ${"x".repeat(40)}`).join("\n"));
  return work;
}

for (const { wire, flags } of WIRES) {
  describe(`automatic pruning over ${wire} (reasoning model, store on)`, () => {
    test("a long tool loop with a small threshold prunes many times with zero server errors", async () => {
      const work = bigWorkspace();
      const steps = 24;
      const replies: Reply[] = Array.from({ length: steps }, (_, i) => ({
        reasoning: `step ${i}: read the next part`,
        text: i % 3 === 0 ? `Reading part ${i % 4}.` : undefined,
        toolCalls: [{ name: "read_file", input: { path: `part${i % 4}.txt` } }],
      }));
      replies.push({ reasoning: "done", text: "All parts read." });
      const s = await serve(...replies);
      const run = await runShiro(["-p", "read every part", "--json", "-m", "gpt-5", "--max-steps", "40", ...flags], {
        baseURL: s.url,
        cwd: work,
        env: { SHIRO_COMPACT_AT: String(THRESHOLD) },
      });
      expect(run.code).toBe(0);
      const compacted = jsonLines(run.stdout).filter((l) => l.type === "compacted");
      expect(compacted).toHaveLength(1); // one event per turn
      expect(compacted[0]!.after).toBeLessThan(compacted[0]!.before);
      const sizes = s.requests.map((r) => wireTokens(r.body));
      // Unpruned, the last request would carry every file read; pruned, each stays near the threshold
      // (plus the system prompt, which the estimate does not count).
      expect(sizes.at(-1)!).toBeGreaterThan(0);
      expect(Math.max(...sizes)).toBeLessThan(THRESHOLD + 1_500);
      // The model still sees what it did long ago, as a digest line.
      expect(JSON.stringify(s.requests.at(-1)!.body)).toMatch(/read_file.*part0\.txt/);
    }, 60_000);
  });

  describe(`interrupted turns over ${wire}`, () => {
    test("a turn killed by SIGINT during a tool call leaves a history the next prompt can send", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "sleep 30" } }] }, { text: "next prompt works" });
      const child = Bun.spawn([...shiroCommand(), "-p", "wait", "--yolo", ...flags], {
        cwd: work,
        env: { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: s.url, SHIRO_CONTEXT_WINDOW: "1000000", ...HOST_INDEPENDENT_ENV },
        stdout: "pipe",
        stderr: "pipe",
      });
      const deadline = Date.now() + 10_000;
      while (s.requests.length < 1 && Date.now() < deadline) await Bun.sleep(20);
      await Bun.sleep(400); // the bash call is running now
      child.kill("SIGINT");
      expect(await child.exited).toBe(130);
      const run = await runShiro(["-c", "-p", "try again", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toMatch(/interrupted/);
    }, 30_000);
  });
}

describe("a resumed session whose items the provider forgot (responses)", () => {
  test("404 → the history is re-sent inline once, with the notice, and the turn succeeds", async () => {
    const home = tempDir();
    const work = tempDir();
    const s = await serve(
      { reasoning: "thinking", text: "first answer" },
      { reasoning: "thinking again", text: "second answer" },
    );
    serve.allowRejections("the provider's 404 for the forgotten items is what the repair answers; counted below");
    await runShiro(["-p", "first", "-m", "gpt-test"], { baseURL: s.url, cwd: work, home });
    s.forgetItems();
    const run = await runShiro(["-c", "-p", "second", "--json", "-m", "gpt-test"], { baseURL: s.url, cwd: work, home });
    const lines = jsonLines(run.stdout);
    expect(lines.filter((l) => l.type === "notice").map((l) => l.message)).toContain(
      "the provider no longer had part of this session stored. Re-sent the history inline and carried on.",
    );
    expect(lines.at(-1)).toMatchObject({ status: "success", text: "second answer" });
    expect(s.errors).toHaveLength(1); // the one 404 the repair answered
    expect(s.errors[0]).toMatch(/forgetItems|not found/i);
    // The repair is saved: a third run sends the inline history without any 404.
    s.push({ text: "third answer" });
    const third = await runShiro(["-c", "-p", "third", "-m", "gpt-test"], { baseURL: s.url, cwd: work, home });
    expect(third.code).toBe(0);
    expect(s.errors).toHaveLength(1);
  });
});

const SUMMARY = [
  "## Goal\nFix the pagination boundary bug.",
  "## Files touched\nsrc/page.ts",
  "## Decisions\nUse an exclusive end index.",
  "## Commands and outcomes\nbun test: 1 failure, then all pass.",
  "## What remains\nUpdate the docs.",
].join("\n\n");

function sessionFileOf(home: string): string {
  const dir = join(home, ".shiro-neko", "sessions");
  const name = require("node:fs").readdirSync(dir).find((n: string) => n.endsWith(".json"));
  return join(dir, name);
}

describe("shiro sessions compact (manual /compact)", () => {
  test("the summary replaces the transcript, the task list stays, and work continues on a strict server", async () => {
    const home = tempDir();
    const work = tempDir();
    const todos = [{ content: "update the docs", status: "pending" }];
    const s = await serve(
      { toolCalls: [{ name: "todo_write", input: { todos } }] },
      { toolCalls: [{ name: "list_dir", input: {} }] },
      { text: "the bug is in the boundary" },
      { text: SUMMARY },
      { text: "continuing from the summary" },
    );
    const first = jsonLines((await runShiro(["-p", "fix pagination", "--json"], { baseURL: s.url, cwd: work, home })).stdout).at(-1)!;
    const compact = await runShiro(["sessions", "compact", first.sessionId], { baseURL: s.url, home });
    expect(compact.code).toBe(0);
    const record = JSON.parse(require("node:fs").readFileSync(sessionFileOf(home), "utf8"));
    expect(record.messages).toHaveLength(1);
    expect(JSON.stringify(record.messages)).toContain("Fix the pagination boundary bug.");
    expect(record.notebook.todos).toEqual(todos);
    const next = await runShiro(["-c", "-p", "carry on"], { baseURL: s.url, cwd: work, home });
    expect(next.code).toBe(0);
  });

  test("a rate-limited summary request is tried again as a turn would, and says so", async () => {
    const home = tempDir();
    const s = await serve(
      { text: "an answer" },
      { status: 429, headers: { "retry-after": "0.05" }, body: { error: { message: "slow down", type: "rate_limit" } } },
      { text: SUMMARY },
    );
    const first = jsonLines((await runShiro(["-p", "question", "--json"], { baseURL: s.url, home })).stdout).at(-1)!;
    const compact = await runShiro(["sessions", "compact", first.sessionId], { baseURL: s.url, home });
    expect(compact.code).toBe(0);
    expect(compact.stderr).toMatch(/^shiro: .*slow down; retrying in 50ms \(attempt 2 of \d+\)$/m);
    expect(compact.stdout).toContain("replaced by a summary");
    expect(s.requests).toHaveLength(3);
  });

  test("an unusable summary leaves the session byte-for-byte as it was", async () => {
    const home = tempDir();
    const s = await serve({ text: "an answer" }, { text: "I cannot summarise this." });
    const first = jsonLines((await runShiro(["-p", "question", "--json"], { baseURL: s.url, home })).stdout).at(-1)!;
    const before = require("node:fs").readFileSync(sessionFileOf(home), "utf8");
    const compact = await runShiro(["sessions", "compact", first.sessionId], { baseURL: s.url, home });
    expect(compact.code).toBe(1);
    expect(compact.stderr).toContain("left as it was");
    expect(require("node:fs").readFileSync(sessionFileOf(home), "utf8")).toBe(before);
  });
});

describe("shiro doctor / sessions repair", () => {
  test("reports a broken saved history, fixes it with --write (keeping a backup), and the session works again", async () => {
    const home = tempDir();
    const work = tempDir();
    // A server that lists its models: doctor checks the set-up (the model offered) before the session.
    const s = await serve.with({ vendor: "openai", models: { "gpt-5-mini": { contextWindow: 1_000_000 } } })({ text: "hello" });
    await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work, home });
    const path = sessionFileOf(home);
    const record = JSON.parse(require("node:fs").readFileSync(path, "utf8"));
    // A tool result whose call is gone: what a bad prune used to leave behind.
    record.messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: "call_gone", toolName: "bash", output: { type: "text", value: "x" } }] });
    writeFileSync(path, JSON.stringify(record));
    const check = await runShiro(["doctor"], { baseURL: s.url, cwd: work, home });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("call_gone");
    const fix = await runShiro(["doctor", "--write"], { baseURL: s.url, cwd: work, home });
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain(".bak-");
    expect((await runShiro(["sessions", "repair", record.id], { home })).stdout).toContain("healthy");
    s.push({ text: "works again" });
    expect((await runShiro(["-c", "-p", "again"], { baseURL: s.url, cwd: work, home })).code).toBe(0);
  });
});
