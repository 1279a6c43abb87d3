// Headless, a command the sandbox stopped is never retried outside it, and nobody is asked: the line
// the user reads (stderr, and the JSON tool-result's summary) says what stopped it, not only "exit 1".
import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { reportSkip, sandboxUnavailable, siblingLayout } from "../sandbox/support.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";

const serve = useFakeServer();
const unavailable = sandboxUnavailable();
reportSkip("spec/e2e/sandbox-headless.test.ts", unavailable);
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A workspace and a sibling outside it (siblingLayout), and the command that writes to the sibling. */
function layout() {
  const { top, home, cwd, sibling } = siblingLayout("shiro-e2e-sandbox-");
  made.push(top);
  return { home, cwd, command: `echo after > ${join(sibling, "file.txt")}`, target: join(sibling, "file.txt") };
}

test.skipIf(unavailable !== undefined)("text mode: the result line says the sandbox stopped the write, and why", async () => {
  const { home, cwd, command, target } = layout();
  // The model reads the whole reason (and the config that opens a path); the line is the short form.
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "could not" });
  const run = await runShiro(["-p", "update the sibling", "--yolo"], { baseURL: s.url, cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("✗ bash: exit 1, stopped by the sandbox: it tried to write outside the workspace · echo after > ");
  expect(readFileSync(target, "utf8")).toBe("before\n");
});

test.skipIf(unavailable !== undefined)("--json: the tool-result's summary says the same; a command that fails on its own is only its exit code", async () => {
  const { home, cwd, command } = layout();
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { toolCalls: [{ name: "bash", input: { command: "exit 3" } }] }, { text: "could not" });
  const run = await runShiro(["-p", "update the sibling", "--yolo", "--json"], { baseURL: s.url, cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  expect(run.code).toBe(0);
  const results = jsonLines(run.stdout).filter((line) => line.type === "tool-result");
  expect(results.map((r) => r.summary)).toEqual([
    "exit 1, stopped by the sandbox: it tried to write outside the workspace",
    "exit 3",
  ]);
});
