import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { grantFor } from "../../lib/permissions/session-grants.ts";
import { withSavedGrant } from "../../lib/permissions/save-rule.ts";

const serve = useFakeServer();
const bash = { name: "bash", subject: { kind: "command" as const } };

for (const { wire, flags } of WIRES) {
  describe(`prefix grants over ${wire}`, () => {
    test("saved prefix grants (as 'always' saves them) run their commands; deny rules and the guard still win", async () => {
      const work = tempDir();
      const home = tempDir();
      mkdirSync(join(home, ".shiro-neko"));
      // What "always" then "e" (every project) saves for these two questions.
      let alwaysAllow = withSavedGrant(undefined, grantFor(bash, "bun --version one")!);
      alwaysAllow = withSavedGrant(alwaysAllow, grantFor(bash, "git push origin main && git status")!);
      expect(alwaysAllow).toEqual({ bash: ["bun --version *", "git push *", "git status *"] });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ alwaysAllow, permission: { bash: { "bun --version secret*": "deny" } } }));
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "bun --version other" } }] },
        { toolCalls: [{ name: "bash", input: { command: "bun --version secret" } }] },
        { toolCalls: [{ name: "bash", input: { command: "git push --force origin main" } }] },
        { text: "done" },
      );
      const lines = jsonLines((await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url, cwd: work, home })).stdout);
      // The grant covers a command it was not given for: it runs, headless, without --yolo.
      expect(lines.find((l) => l.type === "tool-result")).toMatchObject({ tool: "bash", exitCode: 0, output: expect.stringContaining(Bun.version) });
      const denied = lines.at(-1)!.denied;
      expect(denied.map((d: any) => d.subject)).toEqual(["bun --version secret", "git push --force origin main"]);
      expect(denied[0].reason).toContain("deny");
      expect(denied[1].reason).toMatch(/force/i);
    });
  });
}
