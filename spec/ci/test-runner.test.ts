// `bun run test` (scripts/test.ts) ends with the line CI reads. Run here on a probe spec with a known
// mix of outcomes; SHIRO_BIN is set so the runner does not build the binary first.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { REPO_ROOT } from "../support/shared-fixtures.ts";

function runner(probeSource: string) {
  const probe = join(tempDir(), "probe.test.ts");
  writeFileSync(probe, probeSource);
  const child = Bun.spawnSync([process.execPath, join(REPO_ROOT, "scripts", "test.ts"), probe], {
    cwd: REPO_ROOT,
    env: { ...process.env, SHIRO_BIN: "/bin/false" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines = child.stdout.toString().trimEnd().split("\n");
  return { code: child.exitCode, last: lines.at(-1), lines };
}

test("the closing line counts passes, failures and skips (todos included); a failure exits 1", () => {
  const run = runner(`
import { test } from "bun:test";
test("passes, printing a line shaped like bun's own count", () => { console.log(" 7 pass"); });
test("passes too", () => {});
test.skip("skipped", () => {});
test.todo("not written yet");
test("fails", () => { throw new Error("on purpose"); });
`);
  expect(run).toMatchObject({ code: 1, last: "2 passed, 1 failed, 2 skipped" });
});

test("a clean run exits 0 and still reports its skips", () => {
  expect(runner(`import { test } from "bun:test";\ntest("ok", () => {});\ntest.skip("later", () => {});\n`)).toMatchObject({ code: 0, last: "1 passed, 0 failed, 1 skipped" });
});

test("a spec file that fails to load is a failure even with nothing counted", () => {
  expect(runner(`import { test } from "bun:test";\nthrow new Error("broken at load");\n`)).toMatchObject({ code: 1, last: expect.stringMatching(/^\d+ passed, [1-9]\d* failed, 0 skipped$/) });
});

test("the reasons specs gave for skipping (SKIP lines on stderr) are repeated, once each, just above the closing line", () => {
  const run = runner(`
import { test } from "bun:test";
import { reportSkip } from "${join(REPO_ROOT, "spec", "support", "host-tools.ts")}";
const why = "bubblewrap (bwrap) is not installed (sudo apt-get install bubblewrap)";
reportSkip("probe.test.ts", why);
reportSkip("probe.test.ts", why);
test.skipIf(true)("needs the sandbox", () => {});
test("runs", () => {});
`);
  expect(run.code).toBe(0);
  expect(run.lines.slice(-3)).toEqual([
    "Skipped here, and why:",
    "  probe.test.ts: the sandbox cannot run here: bubblewrap (bwrap) is not installed (sudo apt-get install bubblewrap)",
    "1 passed, 0 failed, 1 skipped",
  ]);
});
