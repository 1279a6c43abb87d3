// `shiro -p "… @path …"`: the file goes with the prompt, as in the interactive loop.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { lastUserText } from "../repl/pty.ts";

const serve = useFakeServer();

for (const { wire, flags } of WIRES) {
  describe(`@path in a headless prompt over ${wire}`, () => {
    test("the file's numbered lines go with the prompt; stderr says it was attached", async () => {
      const work = tempDir();
      writeFileSync(join(work, "page.ts"), "let page = 0;\npage++;\n");
      const s = await serve({ text: "It counts pages." });
      const run = await runShiro(["-p", "what does @page.ts do?", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("It counts pages.\n");
      expect(run.stderr).toContain("attached page.ts (2 lines)");
      const sent = lastUserText(s.requests[0]!.body);
      expect(sent.startsWith("what does @page.ts do?\n\n")).toBe(true);
      expect(sent).toContain("     1\tlet page = 0;\n     2\tpage++;");
    });

    test("a secrets file is not attached, and the note says why", async () => {
      const work = tempDir();
      writeFileSync(join(work, ".env"), "API_KEY=do-not-send\n");
      const s = await serve({ text: "I cannot see it." });
      const run = await runShiro(["-p", "check @.env", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("not attached: .env is a secrets file");
      expect(lastUserText(s.requests[0]!.body)).toBe("check @.env");
    });
  });
}
