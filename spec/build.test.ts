// The build (`bun run build`): one executable, and no source-map files piling up beside it from
// build to build (their names change with every build; the maps --debug traces use are inside it).
import { expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./support/shared-fixtures.ts";
import { tempDir } from "./support/cli.ts";

test("a build leaves the executable and nothing else: an earlier build's chunk maps are gone, other files kept", async () => {
  const dir = tempDir("shiro-build-");
  writeFileSync(join(dir, "chunk-0ld0ld00.js.map"), "{}");
  writeFileSync(join(dir, "shiro.map"), "{}");
  writeFileSync(join(dir, "notes.txt"), "mine");
  const build = Bun.spawn([process.execPath, "run", "build", "--outfile", join(dir, "shiro")], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  expect(await build.exited).toBe(0);
  expect(readdirSync(dir).sort()).toEqual(["notes.txt", "shiro"]);
  const version = Bun.spawnSync([join(dir, "shiro"), "--version"]);
  expect(version.exitCode).toBe(0);
  expect(version.stdout.toString()).toStartWith("shiro ");
}, 180_000);
