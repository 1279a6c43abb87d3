// Calls a subagent makes go through the parent's policy: its rules, guard and grants, and its prompt for a worker.
import { expect, test } from "bun:test";
import { createPermissionPolicy, type AskAnswer, type PermissionQuestion } from "../../lib/permissions/policy.ts";
import { subjectOf } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import type { SubagentOrigin } from "../../lib/approval.ts";

const root = "/w/proj";
const tool = (name: string) => coreTools.find((t) => t.name === name)!;
const explore: SubagentOrigin = { kind: "explore", description: "find the pager", ask: false };
const worker: SubagentOrigin = { kind: "worker", description: "fix the pager", ask: true };

let n = 0;
function approve(policy: ReturnType<typeof createPermissionPolicy>, name: string, input: Record<string, unknown>, subagent?: SubagentOrigin) {
  const def = tool(name);
  return policy.approve({ tool: def, input, subject: subjectOf(def, input) ?? "", id: `call_${++n}`, ...(subagent ? { subagent } : {}) });
}

function interactive(config: object, answers: AskAnswer[]) {
  const asked: PermissionQuestion[] = [];
  const policy = createPermissionPolicy({
    config,
    root,
    home: "/w",
    yolo: false,
    interactive: true,
    ask: async (q) => {
      asked.push(q);
      return answers.shift() ?? "deny";
    },
  });
  return { policy, asked };
}

test("a read-only subagent's call that the rules would ask about is refused without a question", async () => {
  const { policy, asked } = interactive({ permission: { read_file: { "docs/**": "ask" } } }, ["once"]);
  const decision = await approve(policy, "read_file", { path: "docs/a.md" }, explore);
  expect(decision.allow).toBe(false);
  expect(!decision.allow && decision.reason).toContain("a read-only subagent never asks");
  expect(asked).toEqual([]);
  // The same call from the main agent is asked about.
  expect((await approve(policy, "read_file", { path: "docs/a.md" })).allow).toBe(true);
  expect(asked).toHaveLength(1);
});

test("deny rules and the secrets check hold for a subagent as for the main agent", async () => {
  const { policy } = interactive({ permission: { read_file: { "private/**": "deny" } } }, []);
  expect((await approve(policy, "read_file", { path: "private/x" }, explore)).allow).toBe(false);
  expect((await approve(policy, "read_file", { path: ".env" }, explore)).allow).toBe(false);
  expect((await approve(policy, "read_file", { path: "src/a.ts" }, explore)).allow).toBe(true);
});

test("parallel read-only subagents reading the same file are not taken for a loop", async () => {
  const { policy, asked } = interactive({}, []);
  for (let i = 0; i < 5; i++) expect((await approve(policy, "read_file", { path: "package.json" }, explore)).allow).toBe(true);
  expect(asked).toEqual([]);
});

test("a worker's call is asked about, marked as the subagent's, and its 'always' covers the main agent's later calls", async () => {
  const { policy, asked } = interactive({}, ["always"]);
  expect((await approve(policy, "edit_file", { path: "src/a.ts", oldString: "a", newString: "b" }, worker)).allow).toBe(true);
  expect(asked).toHaveLength(1);
  expect(asked[0]!.subagent).toEqual(worker);
  expect((await approve(policy, "edit_file", { path: "src/b.ts", oldString: "a", newString: "b" })).allow).toBe(true);
  expect(asked).toHaveLength(1); // granted: not asked again
});

test("the guard refuses a worker's destructive command even with --yolo", async () => {
  const policy = createPermissionPolicy({ config: {}, root, home: "/w", yolo: true, interactive: false });
  const decision = await approve(policy, "bash", { command: "rm -rf /" }, worker);
  expect(decision.allow).toBe(false);
});
