// /goal in the loop (docs/goals.md): turns go on by themselves until the check passes, the status
// line shows where the goal stands, esc pauses it and /goal resume goes on.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, usePty, userTexts } from "./pty.ts";

const { serve, start } = usePty();

/** A check that fails until its `passOn`th run. */
function workWithCheck(passOn: number): string {
  const work = tempDir();
  writeFileSync(join(work, "check.sh"), `n=$(cat .runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > .runs; echo "check run $n"; [ $n -ge ${passOn} ]\n`);
  return work;
}

test("/goal with a check runs turns until it passes, each failure shown, and the status line says how it stands", async () => {
  const s = await serve({ text: "first try" }, { text: "second try" });
  const pty = await start({ baseURL: s.url, cwd: workWithCheck(2), cols: 100 });
  await pty.waitForPrompt(1);
  pty.line('/goal make it pass --until "sh check.sh" --max-turns 3');
  await pty.waitFor("goal met: the check `sh check.sh` passed after 2 turns");
  await pty.waitFor("goal met", { count: 2 }); // the notice, and the status line
  expect(pty.screen()).toContain("goal check `sh check.sh` failed (exit 1) · turn 1/3");
  expect(s.requests).toHaveLength(2);
  expect(userTexts(s.requests[0]!.body)[0]).toBe("make it pass");
  expect(userTexts(s.requests[1]!.body).some((t) => t.includes("check run 1") && t.includes("keep going"))).toBe(true);
  pty.line("/goal");
  await pty.waitFor("Objective: make it pass");
  expect(pty.screen()).toContain("Check: `sh check.sh`, passing");
});

test("esc stops the turn and pauses the goal; /goal resume goes on; /goal clear ends it", async () => {
  const s = await serve({ text: "working on it", fault: "hang" }, { text: "resumed" });
  const pty = await start({ baseURL: s.url, cwd: workWithCheck(1), cols: 100 });
  await pty.waitForPrompt(1);
  pty.line('/goal ship it --until "sh check.sh"');
  await pty.waitFor("working on it");
  pty.write(KEYS.esc);
  await pty.waitFor("goal paused · turn 1/10");
  pty.line("/goal resume");
  await pty.waitFor("goal met: the check `sh check.sh` passed after 2 turns");
  expect(lastUser(s.requests[1]!.body)).toContain("Go on working toward the goal (turn 2 of 10); shiro runs its check `sh check.sh`");
  pty.line("/goal clear");
  await pty.waitFor("Goal cleared: ship it");
});

/** The user message shiro wrote for the turn (the one before the goal note at the end). */
function lastUser(body: any): string {
  const texts = userTexts(body);
  return texts.at(-2) ?? "";
}
