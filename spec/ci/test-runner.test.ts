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
  return { code: child.exitCode, last: child.stdout.toString().trimEnd().split("\n").at(-1) };
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
  expect(run).toEqual({ code: 1, last: "2 passed, 1 failed, 2 skipped" });
});

test("a clean run exits 0 and still reports its skips", () => {
  expect(runner(`import { test } from "bun:test";\ntest("ok", () => {});\ntest.skip("later", () => {});\n`)).toEqual({ code: 0, last: "1 passed, 0 failed, 1 skipped" });
});

test("a spec file that fails to load is a failure even with nothing counted", () => {
  expect(runner(`import { test } from "bun:test";\nthrow new Error("broken at load");\n`)).toMatchObject({ code: 1, last: expect.stringMatching(/^\d+ passed, [1-9]\d* failed, 0 skipped$/) });
});
