// The first request of a session, as the fake server receives it from the binary: small enough
// that every step's fixed part (system prompt and tool definitions) stays cheap.
import { describe, expect, test } from "bun:test";
import { runShiro } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

const DEFAULT_TOOLS = [
  "read_file", "write_file", "edit_file", "multi_edit", "apply_patch", "move_file", "delete_file", "glob", "grep", "list_dir",
  "bash", "jobs", "git", "web_fetch", "todo_write", "remember", "recall", "forget", "task",
];

for (const { wire, flags } of WIRES) {
  describe(`request size over ${wire}`, () => {
    test("with every default tool the first request is at most 12,800 bytes, the tools 550 characters each on average", async () => {
      const s = await serve({ text: "ok" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      const body = s.requests[0]!.body as { tools: { name?: string; function?: { name: string } }[] };
      expect(body.tools.map((t) => t.name ?? t.function?.name)).toEqual(DEFAULT_TOOLS);
      const sizes = body.tools.map((t) => JSON.stringify(t).length);
      expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).toBeLessThanOrEqual(550);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(12_800);
    });
  });
}
