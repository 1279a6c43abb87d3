// Reduced kill -9 check (the full one, 200 kills, is `bun scripts/reliability.ts`): a scripted tool
// loop killed with SIGKILL at random moments; after each kill every session, memory and history
// file parses and the session holds what the server was told, but for the last step (at a model's
// pace) or the last 400 ms of steps (at machine pace). See docs/reliability.md.
import { expect, test } from "bun:test";
import { runKillCheck } from "../support/reliability/kill.ts";

test("kill -9 at 15 random moments of a tool loop: every file parses, at most the last step is lost", async () => {
  const f = await runKillCheck({ runs: 15, seed: 9, windowMs: 1000 });
  expect(f.problems).toEqual([]);
  expect(f.runs).toBe(15);
  expect(f.filesChecked).toBeGreaterThan(15);
}, 60_000);
