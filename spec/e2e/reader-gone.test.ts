import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";

/**
 * Runs `shiro <args> | <reader>` in bash, shiro started a moment after the reader so that a reader
 * that leaves at once (`true`) is gone before shiro writes; returns shiro's status and stderr.
 */
async function piped(args: string[], reader: string): Promise<{ code: string; stderr: string }> {
  const home = tempDir();
  const cmd = [...shiroCommand(), ...args].map((a) => `'${a}'`).join(" ");
  const script = `{ sleep 0.2; ${cmd} 2>err.txt; echo $? > status.txt; } | ${reader}`;
  const child = Bun.spawn(["bash", "-c", script], { cwd: home, env: shiroEnv(home, "http://127.0.0.1:9/v1"), stdout: "ignore", stderr: "ignore" });
  await child.exited;
  return { code: (await Bun.file(join(home, "status.txt")).text()).trim(), stderr: await Bun.file(join(home, "err.txt")).text() };
}

describe("a reader that goes away (| head) ends a command quietly: status 0, nothing on stderr", () => {
  for (const args of [["doctor"], ["config"], ["sessions"], ["memory", "list"], ["config", "path"], ["--help"], ["-m", "m", "config"]]) {
    test(`shiro ${args.join(" ")} | true`, async () => {
      const run = await piped(args, "true");
      expect(run.stderr).toBe("");
      expect(run.code).toBe("0");
    });
  }

  test("shiro doctor | head -1: the first line is read, the rest is dropped without a stack trace", async () => {
    const run = await piped(["doctor"], "head -1 >/dev/null");
    expect(run.stderr).toBe("");
  });
});
