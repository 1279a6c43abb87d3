// describeWithShared's three outcomes, seen from the outside: a probe spec declares a block for each
// (../shared absent, present without the fixture, present with it) and runs in a child `bun test`.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./cli.ts";
import { REPO_ROOT, SHARED_ROOT, sharedPath } from "./shared-fixtures.ts";

test("../shared is resolved beside the repository root", () => {
  expect(existsSync(join(REPO_ROOT, "package.json"))).toBe(true);
  expect(SHARED_ROOT).toBe(resolve(import.meta.dir, "../../../shared"));
  expect(sharedPath("fixtures/openai")).toBe(join(SHARED_ROOT, "fixtures", "openai"));
});

test("absent ../shared skips with a message; a missing fixture in a present ../shared fails", () => {
  const dir = tempDir();
  const present = join(dir, "shared");
  mkdirSync(join(present, "fixtures", "here"), { recursive: true });
  const probe = join(dir, "probe.test.ts");
  writeFileSync(
    probe,
    `
import { test } from "bun:test";
import { describeWithShared } from ${JSON.stringify(join(import.meta.dir, "shared-fixtures.ts"))};
describeWithShared("fixtures/here", "no shared", () => { test("reads it", () => {}); }, { root: ${JSON.stringify(join(dir, "nowhere"))} });
describeWithShared("fixtures/gone", "moved fixture", () => { test("reads it", () => {}); }, { root: ${JSON.stringify(present)} });
describeWithShared("fixtures/here", "all there", (at) => { test("reads it at " + at.slice(${JSON.stringify(dir.length)}), () => {}); }, { root: ${JSON.stringify(present)} });
`,
  );
  const child = Bun.spawnSync([process.execPath, "test", probe], { cwd: dir, env: process.env, stdout: "pipe", stderr: "pipe" });
  const out = child.stdout.toString() + child.stderr.toString();
  const verdicts = [...out.matchAll(/^\((pass|fail|skip)\) (.+?)(?: \[[\d.]+m?s\])?$/gm)].map((m) => `${m[1]}: ${m[2]}`).sort();
  expect(verdicts).toEqual([
    "fail: moved fixture > needs ../shared/fixtures/gone",
    "pass: all there > reads it at /shared/fixtures/here",
    "skip: no shared > needs ../shared/fixtures/here (absent: no ../shared beside the checkout)",
  ]);
  expect(out).toContain(`skipping "no shared": it needs ../shared/fixtures/here, and ../shared (${join(dir, "nowhere")}) is absent`);
  expect(out).toContain(`../shared is present (${present}) but fixtures/gone is not in it`);
  expect(child.exitCode).toBe(1);
});
