// Eight shiro processes on one project at once: every fact remembered reaches the store, and no
// conversation is lost when eight `-c` runs start together (the session is forked, and each fork
// says so). The full run repeats each round 10 times: `bun scripts/reliability.ts`.
import { expect, test } from "bun:test";
import { runContinueConcurrency, runMemoryConcurrency } from "../support/reliability/concurrency.ts";

test("8 × shiro -p at once, each remembering 5 facts: all 40 are in the store", async () => {
  const f = await runMemoryConcurrency({ rounds: 1 });
  expect(f.problems).toEqual([]);
  expect(f.runs).toBe(8);
}, 60_000);

test("8 × shiro -c at once in one directory: each exchange is in exactly one session, forks announced", async () => {
  const f = await runContinueConcurrency({ rounds: 1 });
  expect(f.problems).toEqual([]);
  expect(f.notes.forks).toBeGreaterThan(0);
}, 60_000);
