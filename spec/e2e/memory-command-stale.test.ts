import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();
const bash = (command: string) => ({ toolCalls: [{ name: "bash", input: { command } }] });
const remember = (text: string) => ({ toolCalls: [{ name: "remember", input: { kind: "command", text } }] });

function storedEntries(home: string): any[] {
  const dir = join(home, ".shiro-neko", "memory");
  const file = readdirSync(dir).find((n) => n.endsWith(".json"))!;
  return JSON.parse(readFileSync(join(dir, file), "utf8")).entries;
}

for (const { wire, flags } of WIRES) {
  describe(`command notes that could not run, over ${wire}`, () => {
    test("a command note is marked after the agent ran its command and got 127 (and 126), not after exit 1; a run that works takes the mark off", async () => {
      const work = tempDir();
      const home = tempDir();
      mkdirSync(join(work, ".git"));
      writeFileSync(join(work, "check.sh"), "#!/bin/sh\nexit 1\n");
      chmodSync(join(work, "check.sh"), 0o755);
      const s = await serve(
        remember("lint runs with `shiro-no-such-linter check`"),
        remember("the checks run with `./check.sh`, they fail until the fixtures exist"),
        remember("tests run with bun test"),
        // The agent runs them: the linter is not there (127); the checks fail (1); the tests' line is two commands (not judged).
        bash("shiro-no-such-linter check --all"),
        bash("cd . && ./check.sh"),
        bash("bun test spec/none || true"),
        { text: "ran them" },
        { text: "second session" },
        // Later the linter is there, and check.sh is no longer executable.
        bash("./check.sh"),
        { text: "third" },
        { text: "fourth session" },
      );
      const yolo = ["--yolo", ...flags];
      expect((await runShiro(["-p", "learn and run", ...yolo], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      const today = new Date().toISOString().slice(0, 10);
      expect(storedEntries(home).map((e) => e.couldNotRun?.exitCode ?? null)).toEqual([127, null, null]);

      expect((await runShiro(["-p", "hi", ...yolo], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      const second = instructionsIn(s.requests[7]!.body);
      expect(second).toContain(`- (command) lint runs with \`shiro-no-such-linter check\`  [may be stale: not found on ${today}]`);
      expect(second).toContain("- (command) the checks run with `./check.sh`, they fail until the fixtures exist\n");
      expect(second).not.toMatch(/bun test {2}\[may be stale/);

      chmodSync(join(work, "check.sh"), 0o644);
      expect((await runShiro(["-p", "run the checks", ...yolo], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      expect((await runShiro(["-p", "hi", ...yolo], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      const fourth = instructionsIn(s.requests[10]!.body);
      expect(fourth).toContain(`- (command) the checks run with \`./check.sh\`, they fail until the fixtures exist  [may be stale: not executable on ${today}]`);

      // Back to executable: a run that ends (even failing) takes the mark off.
      chmodSync(join(work, "check.sh"), 0o755);
      s.push(bash("./check.sh"), { text: "ran again" });
      expect((await runShiro(["-p", "run the checks again", ...yolo], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      expect(storedEntries(home).map((e) => e.couldNotRun?.exitCode ?? null)).toEqual([127, null, null]);
    }, 60_000);
  });
}
