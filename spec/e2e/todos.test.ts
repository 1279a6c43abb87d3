import { describe, expect, test } from "bun:test";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro } from "../support/cli.ts";
import { instructionsIn, taskListIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

const plan = {
  todos: [
    { content: "read the pagination code", status: "completed" },
    { content: "fix the boundary", status: "in_progress" },
    { content: "add a test", status: "pending" },
    { content: "update the docs", status: "blocked", note: "no write access to the wiki" },
  ],
};

for (const { wire, flags } of WIRES) {
  describe(`task list over ${wire}`, () => {
    test("a todo_write on step one is at the end of the request of step two and every later step, and the system prompt does not change", async () => {
      const s = await serve(
        { toolCalls: [{ name: "todo_write", input: plan }] },
        { toolCalls: [{ name: "list_dir", input: {} }] },
        { text: "working on it" },
      );
      const run = await runShiro(["-p", "fix pagination", "--json", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      const block = "tasks ##########.............. 1/4  1 blocked\n[x] read the pagination code\n[~] fix the boundary\n[ ] add a test\n[!] update the docs  (no write access to the wiki)";
      expect(JSON.stringify(s.requests[0]!.body)).not.toContain("tasks #");
      expect(taskListIn(s.requests[1]!.body)).toEndWith(block);
      expect(taskListIn(s.requests[2]!.body)).toEndWith(block);
      // The list is never stored: request three carries it once, at its end.
      expect(JSON.stringify(s.requests[2]!.body).split("[x] read the pagination code").length - 1).toBe(2); // todo_write's result and the note
      const system = instructionsIn(s.requests[0]!.body);
      expect(s.requests.map((r) => instructionsIn(r.body))).toEqual([system, system, system]);
      expect(jsonLines(run.stdout).at(-1)!.todos).toEqual(plan.todos);
    });

    test("bad input is an error result and the previous list stays", async () => {
      const s = await serve(
        { toolCalls: [{ name: "todo_write", input: plan }] },
        { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "x", status: "done" }] } }] },
        { text: "ok" },
      );
      const run = await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url });
      const lines = jsonLines(run.stdout);
      expect(lines.find((l) => l.type === "tool-error")?.error).toContain("todos.0.status");
      expect(lines.at(-1)!.todos).toEqual(plan.todos);
    });

    test("text mode prints the block to stderr when the list changes", async () => {
      const s = await serve({ toolCalls: [{ name: "todo_write", input: plan }] }, { text: "done" });
      const run = await runShiro(["-p", "go", ...flags], { baseURL: s.url });
      expect(run.stdout).toBe("done\n");
      expect(run.stderr).toContain("[~] fix the boundary");
    });
  });
}
