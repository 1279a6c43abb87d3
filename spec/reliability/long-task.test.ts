// Reduced long task (the full run is 300 steps: `bun scripts/reliability.ts`): 60 scripted steps
// with a 6,000-token pruning threshold, over both wires, with gpt-5 and an unknown model id, split
// by a `-c` halfway. Zero refused requests; task list and memory blocks where they belong; at least
// ten pruned requests; every request's history under the threshold.
import { expect, test } from "bun:test";
import { runLongTaskCheck } from "../support/reliability/long-task.ts";

test("60 steps × (responses, chat) × (gpt-5, unknown model): pruned, task list and memory intact, zero server errors", async () => {
  const f = await runLongTaskCheck({ steps: 60, threshold: 6_000 });
  expect(f.problems).toEqual([]);
  expect(f.runs).toBe(4);
}, 60_000);
