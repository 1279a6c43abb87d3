// Goals through the binary, headless, as a CI script runs them (docs/goals.md): turns go on until
// the check passes or the budget ends; without a check the model ends the goal with goal_done; the
// goal stays in every request, pruned or not, and in the session that `-c` continues.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { jsonLines, runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { lastUserTextIn, WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** Every user message's text in a request, in order (chat messages or Responses input items). */
function userTextsIn(body: any): string[] {
  const items: any[] = Array.isArray(body.input) ? body.input : body.messages;
  return items.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")));
}

/** A check that fails (exit 1) until it has run `passOn` times, printing which run it is. */
function countingCheck(work: string, passOn: number): string {
  writeFileSync(join(work, "check.sh"), `n=$(cat .runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > .runs; echo "check run $n"; [ $n -ge ${passOn} ]\n`);
  return "sh check.sh";
}

const record = (stdout: string) => jsonLines(stdout).at(-1)!;

for (const { wire, flags } of WIRES) {
  describe(`goals over ${wire}`, () => {
    test("a check that fails twice then passes: three turns, each after the first told the check's output, exit 0", async () => {
      const work = tempDir();
      const check = countingCheck(work, 3);
      const s = await serve({ text: "first try" }, { text: "second try" }, { text: "third try" });
      const run = await runShiro(["-p", "make the tests pass", "--until", check, "--max-turns", "8", "--json", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      // The turn after a failed check starts with its output, as the user message of that turn.
      const second = userTextsIn(s.requests[1]!.body);
      expect(second.some((t) => t.includes("check `sh check.sh` failed (exit 1)") && t.includes("check run 1") && t.includes("keep going"))).toBe(true);
      expect(userTextsIn(s.requests[2]!.body).some((t) => t.includes("check run 2"))).toBe(true);
      // The goal is in every request, after the history.
      for (const r of s.requests) expect(lastUserTextIn(r.body)).toContain("Objective: make the tests pass");
      const lines = jsonLines(run.stdout);
      expect(lines.filter((l) => l.type === "goal-check").map((l) => [l.turn, l.exitCode, l.passed])).toEqual([
        [1, 1, false],
        [2, 1, false],
        [3, 0, true],
      ]);
      const result = record(run.stdout);
      expect(result).toMatchObject({ status: "success", exitCode: 0, goal: { objective: "make the tests pass", met: true, turns: 3, maxTurns: 8, check: { command: check, exitCode: 0 } } });
      expect(result.goal.check.tail).toContain("check run 3");
      // goal_done is not offered: the check decides.
      expect(JSON.stringify(s.requests[0]!.body.tools)).not.toContain("goal_done");
    });

    test("a budget that runs out: exit 5, the check's last output in the record", async () => {
      const work = tempDir();
      const check = countingCheck(work, 99);
      const s = await serve({ text: "try 1" }, { text: "try 2" });
      const run = await runShiro(["-p", "fix it", "--until", check, "--max-turns", "2", "--json", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(5);
      const result = record(run.stdout);
      expect(result).toMatchObject({ status: "goal-unmet", exitCode: 5, goal: { met: false, turns: 2, check: { command: check, exitCode: 1 } } });
      expect(result.goal.check.tail).toContain("check run 2");
      expect(jsonLines(run.stdout).some((l) => l.type === "notice" && /goal not met within its 2 turns.*-c with --max-turns above 2/.test(l.message))).toBe(true);
    });

    test("without a check, a turn without goal_done gets a reminder; goal_done ends the goal", async () => {
      const work = tempDir();
      const s = await serve(
        { text: "started" },
        { toolCalls: [{ name: "goal_done", input: { summary: "wrote the notes", verification: "read them back" } }] },
        { text: "all done" },
      );
      const run = await runShiro(["--goal", "write release notes", "--json", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      expect(JSON.stringify(s.requests[0]!.body.tools)).toContain("goal_done");
      expect(userTextsIn(s.requests[1]!.body).some((t) => t.includes("The goal is not done yet") && t.includes("goal_done"))).toBe(true);
      expect(record(run.stdout)).toMatchObject({ exitCode: 0, goal: { objective: "write release notes", met: true, turns: 2, check: null, done: { summary: "wrote the notes", verification: "read them back" } } });
    });

    test("a turn the step cap stopped counts as a goal turn; a Stop hook's continuation does not", async () => {
      const work = tempDir();
      const home = tempDir();
      mkdirSync(join(home, ".shiro-neko"));
      // The Stop hook blocks the first turn's end once: the model goes on inside that same turn.
      const stop = `test -f "$SHIRO_PROJECT_DIR/.stopped" && exit 0; touch "$SHIRO_PROJECT_DIR/.stopped"; echo "not yet" >&2; exit 2`;
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: stop }] }] } }));
      const check = countingCheck(work, 2);
      const s = await serve(
        { toolCalls: [{ name: "list_dir", input: { path: "." } }] }, // turn 1: stopped by --max-steps 1
        { text: "turn 2, first part" },
        { text: "turn 2, after the Stop hook" },
      );
      const run = await runShiro(["-p", "go", "--until", check, "--max-steps", "1", "--json", ...flags], { baseURL: s.url, cwd: work, home, timeoutMs: 4000 });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      expect(jsonLines(run.stdout).filter((l) => l.type === "goal-check").map((l) => l.turn)).toEqual([1, 2]);
      expect(record(run.stdout).goal).toMatchObject({ met: true, turns: 2 });
    });

    test("the check goes through the safety guard: a refused check fails with the reason, and the budget ends in exit 5", async () => {
      const s = await serve({ text: "done" });
      const run = await runShiro(["-p", "tidy up", "--until", "rm -rf ~", "--max-turns", "1", "--json", ...flags], { baseURL: s.url });
      expect(run.code).toBe(5);
      const goal = record(run.stdout).goal;
      expect(goal.check.exitCode).toBeNull();
      expect(goal.check.tail).toContain("safety guard refused");
    });

    test("the spend ceiling ends a goal with exit 4, not 5", async () => {
      const work = tempDir();
      const check = countingCheck(work, 99);
      const s = await serve({ text: "costly", usage: { input: 1_000_000, output: 0 } });
      const run = await runShiro(["-p", "fix it", "--until", check, "--max-turns", "5", "--json", "-m", "gpt-5-mini", "--max-spend", "0.01", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(4);
      expect(s.requests).toHaveLength(1);
      expect(record(run.stdout)).toMatchObject({ status: "spend-limit", exitCode: 4, goal: { met: false, turns: 1 } });
      expect(record(run.stdout).error).toContain("at or past its $0.0100 limit");
    });

    test("SIGINT while the check runs: exit 130, the goal paused with its turn counted", async () => {
      const work = tempDir();
      const home = tempDir();
      const s = await serve({ text: "done, I think" });
      const child = Bun.spawn([...shiroCommand(), "-p", "fix it", "--until", "test -f fixed || { touch started; sleep 30; }", "--json", ...flags], { cwd: work, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      while (!existsSync(join(work, "started"))) await Bun.sleep(20);
      child.kill("SIGINT");
      const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
      clearTimeout(timer);
      expect(code).toBe(130);
      expect(record(stdout)).toMatchObject({ status: "interrupted", goal: { met: false, turns: 1 } });
      // -c goes on with it: the goal is in the next request, and this time the check passes.
      writeFileSync(join(work, "fixed"), "");
      const s2 = await serve({ text: "again" });
      const again = await runShiro(["-c", "-p", "go on", "--json", ...flags], { baseURL: s2.url, cwd: work, home });
      expect(lastUserTextIn(s2.requests[0]!.body)).toContain("Objective: fix it");
      expect(record(again.stdout)).toMatchObject({ exitCode: 0, goal: { met: true, turns: 2 } });
    });

    test("a run without a goal records goal null and offers no goal_done", async () => {
      const s = await serve({ text: "hi" });
      const run = await runShiro(["-p", "hello", "--json", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(record(run.stdout).goal).toBeNull();
      expect(JSON.stringify(s.requests[0]!.body.tools)).not.toContain("goal_done");
    });

    test("the goal survives pruning within a run and -c after it: the next run goes on counting its turns", async () => {
      const work = tempDir();
      const home = tempDir();
      for (let i = 0; i < 4; i++) writeFileSync(join(work, `part${i}.txt`), Array.from({ length: 150 }, (_, n) => `line ${n} of part ${i}: ${"x".repeat(40)}`).join("\n"));
      const check = countingCheck(work, 2);
      const reads: Reply[] = Array.from({ length: 8 }, (_, i) => ({ toolCalls: [{ name: "read_file", input: { path: `part${i % 4}.txt` } }] }));
      const s = await serve(...reads, { text: "read them" });
      const env = { SHIRO_COMPACT_AT: "6000" };
      // One turn out of a budget of one: it ends unmet, but the session keeps the goal.
      const first = await runShiro(["-p", "read every part", "--until", check, "--max-turns", "1", "--json", ...flags], { baseURL: s.url, cwd: work, home, env });
      expect(first.code).toBe(5);
      expect(jsonLines(first.stdout).some((l) => l.type === "compacted")).toBe(true);
      // After pruning, the last request still carries the goal.
      expect(lastUserTextIn(s.requests.at(-1)!.body)).toContain("Objective: read every part");

      // -c with a larger budget goes on with the same goal, its turns counted from where they were.
      const s2 = await serve({ text: "went on" });
      const second = await runShiro(["-c", "-p", "go on", "--max-turns", "3", "--json", ...flags], { baseURL: s2.url, cwd: work, home, env });
      expect(second.code).toBe(0);
      expect(lastUserTextIn(s2.requests[0]!.body)).toContain("Objective: read every part");
      expect(record(second.stdout).goal).toMatchObject({ objective: "read every part", met: true, turns: 2, maxTurns: 3 });
    }, 60_000);

    test("-c goes on with a goal the last run left paused: its objective and turn count carry over", async () => {
      const work = tempDir();
      const home = tempDir();
      const check = countingCheck(work, 2);
      // The first run's turn fails (the server errors): the goal is paused after turn 1.
      const s = await serve({ status: 400, body: { error: { message: "bad request" } } });
      serve.allowRejections("the first turn fails on purpose");
      const first = await runShiro(["-p", "fix the build", "--until", check, "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(first.code).toBe(1);
      expect(record(first.stdout).goal).toMatchObject({ objective: "fix the build", met: false, turns: 1 });
      const s2 = await serve({ text: "fixed" }, { text: "really fixed" });
      const second = await runShiro(["-c", "-p", "go on", "--json", ...flags], { baseURL: s2.url, cwd: work, home });
      expect(second.code).toBe(0);
      expect(lastUserTextIn(s2.requests[0]!.body)).toContain("Objective: fix the build");
      expect(record(second.stdout).goal).toMatchObject({ objective: "fix the build", met: true, turns: 3 });
    });
  });
}
