// What the ctrl-c line names when it stops running calls.
import { expect, test } from "bun:test";
import { stoppedCalls } from "../../cmd/repl/turn-runner.ts";

test("one call is named by its tool, several by their count and tools", () => {
  expect(stoppedCalls(["bash"])).toBe("bash");
  expect(stoppedCalls(["bash", "bash"])).toBe("2 bash calls");
  expect(stoppedCalls(["bash", "task", "bash"])).toBe("3 calls (bash, task)");
});
