import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

for (const { wire, flags } of WIRES) {
  describe(`stale notes over ${wire}`, () => {
    test("a note naming a file deleted since is marked in the next session's first request; one whose file is there is not", async () => {
      const work = tempDir();
      const home = tempDir();
      mkdirSync(join(work, ".git"));
      mkdirSync(join(work, "src"));
      writeFileSync(join(work, "src", "parser.ts"), "export {}\n");
      writeFileSync(join(work, "src", "config.ts"), "export {}\n");
      const s = await serve(
        { toolCalls: [{ name: "remember", input: { kind: "fact", text: "the parser lives in `src/parser.ts`" } }] },
        { toolCalls: [{ name: "remember", input: { kind: "fact", text: "settings are read in src/config.ts" } }] },
        { text: "noted" },
        { text: "hello again" },
      );
      expect((await runShiro(["-p", "learn", ...flags], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      expect(instructionsIn(s.requests[2]!.body)).not.toContain("may be stale");
      rmSync(join(work, "src", "parser.ts"));

      expect((await runShiro(["-p", "hi", ...flags], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      const today = new Date().toISOString().slice(0, 10);
      const block = instructionsIn(s.requests[3]!.body);
      expect(block).toContain(`- (fact) the parser lives in \`src/parser.ts\`  [may be stale: src/parser.ts not found on ${today}]`);
      expect(block).toContain("- (fact) settings are read in src/config.ts\n");
    }, 30_000);
  });
}
