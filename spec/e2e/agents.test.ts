// Agent variants and thinking levels, through the binary, read off the requests the fake received.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** The tool names a request offered, whichever wire. */
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name).sort();

/** The reasoning effort a request asked for, whichever wire (undefined: none). */
const effortOf = (body: any): string | undefined => body.reasoning?.effort ?? body.reasoning_effort;

for (const { wire, flags } of WIRES) {
  describe(`agents over ${wire}`, () => {
    test("--agent review offers no tool that changes anything, never asks, and says it cannot run commands", async () => {
      const s = await serve({ text: "No defects found: the change is fine." });
      const run = await runShiro(["-p", "review this change", "--agent", "review", "--json", ...flags], { baseURL: s.url, stdin: "diff --git a/x b/x\n" });
      expect(run.code).toBe(0);
      const body = s.requests[0]!.body;
      // The git read tools stay: they change nothing.
      expect(toolNames(body)).toEqual(["forget", "git", "glob", "grep", "list_dir", "read_file", "recall", "remember", "task", "todo_write"]);
      // Its subagents only read too: no worker is offered to a read-only agent.
      const task = body.tools.find((t: any) => (t.name ?? t.function?.name) === "task");
      expect((task.parameters ?? task.function.parameters).properties.kind.enum).toEqual(["explore", "review"]);
      const instructions = instructionsIn(body);
      expect(instructions).toContain("Mode: review.");
      expect(instructions).toContain("You cannot run commands here");
      expect(instructions).not.toContain("edit_file/multi_edit");
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ status: "success", denied: [] });
    });

    test("the default agent offers every tool and no appendix", async () => {
      const s = await serve({ text: "ok" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(toolNames(s.requests[0]!.body)).toContain("bash");
      expect(instructionsIn(s.requests[0]!.body)).not.toContain("Mode:");
    });

    test("--agent quick stops at its own step cap of 12", async () => {
      const s = await serve(...Array.from({ length: 12 }, (_, i) => ({ toolCalls: [{ name: "glob", input: { pattern: `*.${i}` } }] })));
      const run = await runShiro(["-p", "go", "--agent", "quick", ...flags], { baseURL: s.url });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("stopped after 12 steps");
      expect(s.requests).toHaveLength(12);
    });

    test("thinking levels reach an OpenAI reasoning model as the effort it accepts; --think overrides the variant", async () => {
      const efforts: (string | undefined)[] = [];
      for (const args of [[], ["--agent", "deep"], ["--agent", "deep", "--think", "low"], ["--think", "off"], ["--think", "max", "-m", "gpt-5.2"], ["--think", "off", "-m", "gpt-5.1"]]) {
        const s = await serve({ text: "ok" });
        const run = await runShiro(["-p", "hi", ...args, ...flags], { baseURL: s.url });
        expect(run.code).toBe(0);
        efforts.push(effortOf(s.requests[0]!.body));
      }
      expect(efforts).toEqual(["medium", "high", "low", "minimal", "xhigh", "none"]);
    });

    test("a model that does not reason is sent no effort", async () => {
      const s = await serve({ text: "ok" });
      const run = await runShiro(["-p", "hi", "--agent", "deep", "-m", "gpt-4.1", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(effortOf(s.requests[0]!.body)).toBeUndefined();
    });

    test("--agent deep is not restored by -c: the variant comes from the flags, the session records each turn's", async () => {
      const home = tempDir();
      const cwd = tempDir();
      const s = await serve({ text: "first" }, { text: "second" });
      expect((await runShiro(["-p", "one", "--agent", "deep", ...flags], { baseURL: s.url, home, cwd })).code).toBe(0);
      expect((await runShiro(["-p", "two", "-c", ...flags], { baseURL: s.url, home, cwd })).code).toBe(0);
      expect(instructionsIn(s.requests[0]!.body)).toContain("Mode: deep.");
      expect(instructionsIn(s.requests[1]!.body)).not.toContain("Mode:");
      const [file] = readdirSync(join(home, ".shiro-neko", "sessions")).filter((f) => f.endsWith(".json"));
      const saved = JSON.parse(readFileSync(join(home, ".shiro-neko", "sessions", file!), "utf8"));
      const ranWith = saved.messages.filter((m: any) => m.role === "user").map((m: any) => m.providerOptions?.shiro);
      expect(ranWith).toEqual([{ agent: "deep", thinking: "max" }, { agent: "default", thinking: "medium" }]);
    });
  });
}

describe("a compatible server and the thinking level", () => {
  test("a server that refuses the reasoning parameter gets it dropped once, with a notice, for the rest of the session", async () => {
    const s = await serve.with({ vendor: "vllm" })(
      { status: 400, body: { error: { message: "Unrecognized request argument supplied: reasoning_effort", type: "BadRequestError", param: null, code: 400 } } },
      { toolCalls: [{ name: "glob", input: { pattern: "*.md" } }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "go", "--think", "high", "--api", "chat", "--json"], { baseURL: s.url, env: { SHIRO_CLIENT: undefined } });
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.filter((l) => l.type === "notice" && /thinking level/.test(l.message))).toHaveLength(1);
    expect(s.requests.map((r) => r.body.reasoning_effort)).toEqual(["high", undefined, undefined]);
  });

  test("without a chosen level a compatible server is sent none (its own default applies)", async () => {
    const s = await serve.with({ vendor: "vllm" })({ text: "ok" });
    const run = await runShiro(["-p", "hi", "--api", "chat"], { baseURL: s.url, env: { SHIRO_CLIENT: undefined } });
    expect(run.code).toBe(0);
    expect(s.requests[0]!.body.reasoning_effort).toBeUndefined();
  });

  test("openrouter gets reasoning.effort", async () => {
    const s = await serve.with({ vendor: "openrouter" })({ text: "ok" });
    const run = await runShiro(["-p", "hi", "--provider", "openrouter", "-m", "x/y", "--think", "low"], { baseURL: s.url, env: { SHIRO_CLIENT: undefined, OPENROUTER_API_KEY: "sk-or-test-key-123" } });
    expect(run.code).toBe(0);
    expect(s.requests[0]!.body.reasoning).toEqual({ effort: "low" });
  });
});

describe("bad names", () => {
  test("an unknown agent or thinking level exits 2 and lists the valid ones", async () => {
    const agent = await runShiro(["-p", "hi", "--agent", "sloppy"]);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toBe('shiro: unknown agent "sloppy". Use one of: default, quick, deep, plan, review.\n');
    const think = await runShiro(["-p", "hi", "--think", "hard"]);
    expect(think.code).toBe(2);
    expect(think.stderr).toBe('shiro: unknown thinking level "hard". Use one of: off, low, medium, high, max.\n');
  });
});

describe("a cost the server states", () => {
  test("OpenRouter's usage.cost is what a run costs, in the result record and the saved session, for a model shiro has no price for", async () => {
    const home = tempDir();
    const s = await serve.with({ vendor: "openrouter" })(
      { toolCalls: [{ name: "list_dir", input: {} }], usage: { input: 1000, output: 100 } },
      { text: "done", usage: { input: 2000, output: 50 } },
    );
    const env = { SHIRO_CLIENT: undefined, OPENROUTER_API_KEY: "sk-or-test-key-123" };
    const run = await runShiro(["-p", "look", "--json", "--provider", "openrouter", "-m", "google/gemini-3-pro"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    // The fake bills $0.25 per million input tokens and $1.50 per million output, as OpenRouter states it.
    const stated = (1000 * 0.25 + 100 * 1.5 + 2000 * 0.25 + 50 * 1.5) / 1_000_000;
    const result = jsonLines(run.stdout).at(-1)!;
    expect(result.costUsd).toBeCloseTo(stated, 10);
    expect(result.usage).toEqual({ inputTokens: 3000, outputTokens: 150 });
    const list = jsonLines((await runShiro(["sessions", "--all", "--json"], { home })).stdout);
    expect(list[0]!.costUsd).toBeCloseTo(stated, 10);
  });
});
