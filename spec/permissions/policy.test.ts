import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../lib/events.ts";
import { toSdkTools } from "../../lib/agent/sdk-tools.ts";
import { subjectOf } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import {
  createPermissionPolicy,
  type AskAnswer,
  type PermissionPolicyOptions,
  type PermissionQuestion,
} from "../../lib/permissions/policy.ts";
import { tempDir } from "../support/cli.ts";

const root = "/w/proj";
const tool = (name: string) => {
  const found = coreTools.find((t) => t.name === name);
  if (!found) throw new Error(`no core tool ${name}`);
  return found;
};
const inputFor: Record<string, (subject: string) => unknown> = {
  bash: (command) => ({ command }),
  read_file: (path) => ({ path }),
  write_file: (path) => ({ path, content: "x" }),
  edit_file: (path) => ({ path, oldString: "a", newString: "b" }),
  glob: (pattern) => ({ pattern }),
};

let callId = 0;
/** Asks the policy about one call the way lib/agent/tool-call.ts does. */
function call(policy: ReturnType<typeof createPermissionPolicy>, name: string, subject: string) {
  const def = tool(name);
  const input = inputFor[name]!(subject);
  return policy.approve({ tool: def, input, subject: subjectOf(def, input) ?? "", id: `call_${++callId}` });
}

function policyWith(opts: Partial<PermissionPolicyOptions> = {}) {
  return createPermissionPolicy({ config: {}, root, home: "/w", yolo: false, interactive: false, ...opts });
}

/** An interactive policy whose user gives `answers` in order and whose questions are recorded. */
function interactive(answers: AskAnswer[], opts: Partial<PermissionPolicyOptions> = {}) {
  const questions: PermissionQuestion[] = [];
  const policy = policyWith({
    interactive: true,
    ask: async (question) => {
      questions.push(question);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected question about ${question.tool.name} ${question.subject}`);
      return answer;
    },
    ...opts,
  });
  return { policy, questions };
}

describe("headless", () => {
  test("allowed tools run; ask means deny, with an instructive reason", async () => {
    const policy = policyWith();
    expect(await call(policy, "read_file", "src/a.ts")).toEqual({ allow: true });
    expect(await call(policy, "glob", "**/*.ts")).toEqual({ allow: true });
    const denied = await call(policy, "write_file", "src/a.ts");
    expect(denied.allow).toBe(false);
    if (denied.allow) return;
    expect(denied.reason).toContain("write_file needs the user's approval");
    expect(denied.reason).toContain("headless");
    expect(denied.reason).toContain("--yolo");
    expect(denied.reason).toContain("Do not retry");
  });

  test("--yolo turns ask into allow", async () => {
    const policy = policyWith({ yolo: true });
    for (const [name, subject] of [["write_file", "a.ts"], ["edit_file", "a.ts"], ["bash", "npm test"]] as const) {
      expect(await call(policy, name, subject)).toEqual({ allow: true });
    }
  });

  test("--yolo never reaches deny rules", async () => {
    const policy = policyWith({ yolo: true, config: { permission: { bash: { "npm publish*": "deny" } } } });
    const denied = await call(policy, "bash", "npm publish");
    expect(denied).toEqual({
      allow: false,
      reason: expect.stringContaining('denied by the rule permission."bash"."npm publish*": "deny"'),
      shown: 'denied by the rule permission."bash"."npm publish*"',
    });
  });

  test(".env is denied even with --yolo; .env.example is allowed", async () => {
    const policy = policyWith({ yolo: true, config: { permission: { "*": "allow" } } });
    for (const path of [".env", "./.env", "app/.env.local", "certs/key.pem"]) {
      const decision = await call(policy, "read_file", path);
      expect(decision.allow).toBe(false);
      if (!decision.allow) expect(decision.reason).toContain("secrets file");
    }
    expect(await call(policy, "read_file", ".env.example")).toEqual({ allow: true });
  });

  test("--yolo never reaches the guard", async () => {
    const policy = policyWith({ yolo: true, config: { permission: { "*": "allow" } } });
    const denied = await call(policy, "bash", "git push --force origin main");
    expect(denied.allow).toBe(false);
    if (denied.allow) return;
    expect(denied.reason).toContain("`git push --force origin main`");
    expect(denied.reason).toContain("ask them to run it themselves");
    expect(denied.reason).toContain("with or without --yolo");
  });

  test("guard.allow lets a named pattern through to the normal rules", async () => {
    const config = { guard: { allow: ["git push --force-with-lease*"] } };
    expect(await call(policyWith({ yolo: true, config }), "bash", "git push --force-with-lease")).toEqual({ allow: true });
    expect((await call(policyWith({ config }), "bash", "git push --force-with-lease")).allow).toBe(false); // still asks → headless deny
  });

  test("a denial becomes a tool-denied event and a readable result, and the tool does not run", async () => {
    const events: AgentEvent[] = [];
    const ws = tempDir();
    const policy = createPermissionPolicy({ config: {}, root: ws, yolo: false, interactive: false });
    const tools = toSdkTools(coreTools, {
      root: ws,
      cwd: ws,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      approve: policy.approve,
    });
    const execute = tools.write_file!.execute as (input: unknown, opts: { toolCallId: string }) => Promise<string>;
    const output = await execute({ path: "a.txt", content: "hi" }, { toolCallId: "call_w" });
    expect(output).toStartWith("Not run: write_file needs the user's approval");
    expect(events).toEqual([
      { type: "tool-denied", id: "call_w", tool: "write_file", subject: "a.txt", reason: expect.stringContaining("headless"), shown: "headless without --yolo" },
    ]);
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
  });
});

describe("interactive", () => {
  test("ask puts the question to the user; once allows only this call", async () => {
    const { policy, questions } = interactive(["once", "deny"]);
    expect(await call(policy, "bash", "npm test")).toEqual({ allow: true });
    const second = await call(policy, "bash", "npm test -- --watch");
    expect(second).toEqual({ allow: false, reason: expect.stringContaining("The user declined this bash call"), shown: "declined" });
    expect(questions.map((q) => [q.why, q.subject])).toEqual([
      ["approval", "npm test"],
      ["approval", "npm test -- --watch"],
    ]);
  });

  test("allowed calls are never asked about", async () => {
    const { policy, questions } = interactive([]);
    expect(await call(policy, "read_file", "a.ts")).toEqual({ allow: true });
    expect(questions).toEqual([]);
  });

  test("always for bash grants the program and its sub-command for the session", async () => {
    const { policy, questions } = interactive(["always", "once", "once"]);
    expect(await call(policy, "bash", "git status")).toEqual({ allow: true, readOnly: true });
    expect(questions[0]!.always).toBe("bash commands starting with `git status`");
    expect(policy.grants()).toEqual([{ tool: "bash", pattern: "git status *" }]);
    expect(await call(policy, "bash", "git status --short")).toEqual({ allow: true, readOnly: true });
    expect(await call(policy, "bash", "git status && git status -s")).toEqual({ allow: true, readOnly: true });
    expect(questions).toHaveLength(1);
    // Not covered: another git sub-command, another program in the line.
    expect(await call(policy, "bash", "git log --oneline")).toEqual({ allow: true, readOnly: true });
    expect(await call(policy, "bash", "git status && npm test")).toEqual({ allow: true });
    expect(questions.map((q) => q.subject)).toEqual(["git status", "git log --oneline", "git status && npm test"]);
  });

  test("always grants for a file tool cover the whole tool", async () => {
    const { policy, questions } = interactive(["always", "deny"]);
    expect(await call(policy, "edit_file", "src/a.ts")).toEqual({ allow: true });
    expect(await call(policy, "edit_file", "docs/b.md")).toEqual({ allow: true });
    expect(questions).toHaveLength(1);
    expect(questions[0]!.always).toBe("every edit_file call");
    // Other file tools still ask.
    expect((await call(policy, "write_file", "c.ts")).allow).toBe(false);
    expect(questions.map((q) => q.tool.name)).toEqual(["edit_file", "write_file"]);
  });

  test("always never overrides a deny", async () => {
    const { policy } = interactive(["always", "always"], {
      config: { permission: { bash: { "git push*": "deny" }, edit_file: { "vendor/*": "deny" } } },
    });
    expect(await call(policy, "bash", "git status")).toEqual({ allow: true, readOnly: true });
    expect((await call(policy, "bash", "git push origin main")).allow).toBe(false);
    expect(await call(policy, "edit_file", "src/a.ts")).toEqual({ allow: true });
    expect((await call(policy, "edit_file", "vendor/lib.js")).allow).toBe(false);
    expect((await call(policy, "bash", "git reset --hard")).allow).toBe(false); // nor the guard
  });

  test("always grants are kept in memory only: nothing is written under SHIRO_HOME", async () => {
    const home = process.env.SHIRO_HOME!;
    const before = listFiles(home);
    const { policy } = interactive(["always", "always", "always"]);
    await call(policy, "bash", "git status");
    await call(policy, "write_file", "a.ts");
    await call(policy, "edit_file", "a.ts");
    expect(policy.grants()).toHaveLength(3);
    expect(listFiles(home)).toEqual(before);
    // A new policy (a new session) starts with none.
    expect(interactive([]).policy.grants()).toEqual([]);
  });

  test("--yolo interactive does not ask", async () => {
    const { policy, questions } = interactive([], { yolo: true });
    expect(await call(policy, "write_file", "a.ts")).toEqual({ allow: true });
    expect(questions).toEqual([]);
  });

  test("interactive without an ask function behaves as headless", async () => {
    const policy = policyWith({ interactive: true });
    expect((await call(policy, "write_file", "a.ts")).allow).toBe(false);
  });

  test("a failing ask denies the call and says why", async () => {
    const policy = policyWith({ interactive: true, ask: async () => Promise.reject(new Error("terminal closed")) });
    expect(await call(policy, "bash", "ls")).toEqual({ allow: false, reason: expect.stringContaining("terminal closed"), shown: expect.stringContaining("could not ask: ") });
  });
});

describe("the repeat guard", () => {
  test("the third identical call in a turn is denied headless, even when allowed, and says there is no progress", async () => {
    const policy = policyWith({ yolo: true });
    expect(await call(policy, "read_file", "a.ts")).toEqual({ allow: true });
    expect(await call(policy, "read_file", "a.ts")).toEqual({ allow: true });
    const third = await call(policy, "read_file", "a.ts");
    expect(third).toEqual({ allow: false, reason: expect.stringContaining("not making progress"), shown: "the same call 3 times this turn" });
    expect(await call(policy, "read_file", "b.ts")).toEqual({ allow: true });
    policy.startTurn();
    expect(await call(policy, "read_file", "a.ts")).toEqual({ allow: true });
  });

  test("interactive: the third identical call asks even when allowed", async () => {
    const { policy, questions } = interactive(["once", "deny"], { yolo: true });
    await call(policy, "bash", "ls");
    await call(policy, "bash", "ls");
    expect(await call(policy, "bash", "ls")).toEqual({ allow: true, readOnly: true });
    expect(questions.map((q) => [q.why, q.count])).toEqual([["repeat", 3]]);
    const fourth = await call(policy, "bash", "ls");
    expect(fourth).toEqual({ allow: false, reason: expect.stringContaining("not making progress"), shown: expect.stringMatching(/^the same call \d+ times this turn$/) });
  });

  test("denied calls do not count, and the guard still comes first", async () => {
    const policy = policyWith({ yolo: true });
    for (let i = 0; i < 4; i++) {
      const decision = await call(policy, "bash", "rm -rf /");
      expect(decision.allow).toBe(false);
      if (!decision.allow) expect(decision.reason).toContain("safety guard");
    }
  });

  test("a different change in between is progress: edit → test → edit → test is not a repeat", async () => {
    const policy = policyWith({ yolo: true });
    for (let i = 0; i < 4; i++) {
      expect(await call(policy, "edit_file", `a${i}.ts`)).toEqual({ allow: true });
      expect(await call(policy, "bash", "bun test")).toEqual({ allow: true });
    }
  });
});

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe("what a PreToolUse hook said (docs/hooks.md)", () => {
  const hooked = (policy: ReturnType<typeof createPermissionPolicy>, command: string, hook: "allow" | "ask") => {
    const def = tool("bash");
    return policy.approve({ tool: def, input: { command }, subject: command, id: `call_${++callId}`, hook });
  };

  test("allow lifts the question a default would ask, but not the user's own ask rule, a deny rule or the guard", async () => {
    const { policy, questions } = interactive(["deny"], { config: { permission: { bash: { "git push*": "ask", "curl *": "deny" } } } });
    expect((await hooked(policy, "touch made", "allow")).allow).toBe(true);
    expect((await hooked(policy, "git push origin main", "allow")).allow).toBe(false);
    expect(questions.map((q) => q.subject)).toEqual(["git push origin main"]);
    expect((await hooked(policy, "curl example.com", "allow")).allow).toBe(false);
    expect((await hooked(policy, "rm -rf ~", "allow")).allow).toBe(false);
  });

  test("ask makes a question even under --yolo, and is a refusal where nobody can answer", async () => {
    const { policy, questions } = interactive(["once"], { yolo: true });
    expect((await hooked(policy, "ls", "ask")).allow).toBe(true);
    expect(questions.map((q) => q.subject)).toEqual(["ls"]);
    expect((await hooked(policyWith({ yolo: true }), "ls", "ask")).allow).toBe(false);
  });
});
