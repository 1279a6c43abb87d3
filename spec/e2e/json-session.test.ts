import { describe, expect, test } from "bun:test";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";

const serve = useFakeServer();

for (const { wire, flags } of WIRES) {
  describe(`--json session and exit codes over ${wire}`, () => {
    test("the first event names the session (id, model, cwd, new or resumed), and -c resumes the same id", async () => {
      const work = tempDir();
      const home = tempDir();
      const s = await serve({ text: "first" }, { text: "second" });
      const first = jsonLines((await runShiro(["-p", "hi", "--json", "-m", "gpt-test", ...flags], { baseURL: s.url, cwd: work, home })).stdout);
      expect(first[0]).toEqual({ type: "session", id: expect.any(String), model: "gpt-test", cwd: work, resumed: false });
      expect(first.at(-1)!.sessionId).toBe(first[0]!.id);

      const again = jsonLines((await runShiro(["-c", "-p", "go on", "--json", "-m", "gpt-test", ...flags], { baseURL: s.url, cwd: work, home })).stdout);
      expect(again[0]).toMatchObject({ type: "session", id: first[0]!.id, resumed: true });
      expect(again.filter((l) => l.type === "session")).toHaveLength(1);
    });

    test("a bash result carries the command's exit code", async () => {
      const work = tempDir();
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "exit 3" } }] },
        { toolCalls: [{ name: "bash", input: { command: "echo ok" } }] },
        { text: "done" },
      );
      const lines = jsonLines((await runShiro(["-p", "run", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work })).stdout);
      const results = lines.filter((l) => l.type === "tool-result" && l.tool === "bash");
      expect(results.map((r) => r.exitCode)).toEqual([3, 0]);
      // Other tools' results do not grow the field.
      expect(lines.filter((l) => l.type === "tool-result" && l.tool !== "bash").every((r) => !("exitCode" in r))).toBe(true);
    });
  });
}
