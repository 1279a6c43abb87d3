// A long scripted task through the binary, on both wires: its requests keep a prefix the provider can
// cache. The fake server emulates OpenAI's prompt caching (spec/support/fake-openai/prompt-cache.ts), so
// the cached share it reports is the share of each request that repeats the previous one byte for byte.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MEMORY_BLOCK_HEADER } from "../../lib/memory/boot-block.ts";
import { renderTodos } from "../../lib/notebook/render.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { DIGEST_HEADER } from "../../lib/prune/digest.ts";
import { DEFAULT_MODEL } from "../../lib/config/defaults.ts";
import { costUsd } from "../../lib/sessions/pricing.ts";
import type { CapturedRequest, Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { PromptCache } from "../support/fake-openai/prompt-cache.ts";
import { estimateInputTokens } from "../support/fake-openai/context-limit.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, taskListIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

const STEPS = 60;
const HALF = 30;
const THRESHOLD = 12_000;
const SEEDED = "the release checklist lives in docs/release.md";
const LATER = "module tests run with bun test, not jest";

const todosAt = (step: number): Todo[] =>
  ["survey the numbers", "check each batch", "write the summary"].map((content, i) => ({
    content: `${content} (step ${step})`,
    status: i === 0 ? "completed" : i === 1 ? "in_progress" : "pending",
  })) as Todo[];

/** Step i: a todo_write every 10 steps, one remember, otherwise a command printing about 3 KB. */
function stepReply(i: number): { reply: Reply; todos?: Todo[] } {
  if (i % 10 === 0) {
    const todos = todosAt(i);
    return { reply: { toolCalls: [{ name: "todo_write", input: { todos } }] }, todos };
  }
  if (i === 15) return { reply: { toolCalls: [{ name: "remember", input: { kind: "fact", text: LATER } }] } };
  return { reply: { toolCalls: [{ name: "bash", input: { command: `seq ${i * 1000} ${i * 1000 + 560}` } }] } };
}

const usageOf = (run: { stdout: string }) => jsonLines(run.stdout).at(-1)!;

for (const { wire, flags } of WIRES) {
  describe(`prompt caching over ${wire}`, () => {
    test(`${STEPS} steps split by -c: task list and memory in every request, prefixes stable between prunes, prompt_cache_key the session id`, async () => {
      const home = tempDir();
      const work = tempDir();
      const env = { SHIRO_COMPACT_AT: String(THRESHOLD) };
      const args = ["--json", "--yolo", "--max-steps", String(STEPS), ...flags];
      // A session before the task leaves a note, so the task's sessions start with a memory block.
      const s = await serve({ toolCalls: [{ name: "remember", input: { kind: "fact", text: SEEDED } }] }, { text: "noted" });
      expect((await runShiro(["-p", "note where the checklist is", ...args], { baseURL: s.url, home, cwd: work })).code).toBe(0);
      const seedRequests = s.requests.length;

      const scripted = Array.from({ length: STEPS }, (_, i) => stepReply(i));
      s.push(...scripted.slice(0, HALF).map((x) => x.reply), { text: "half way" });
      const first = await runShiro(["-p", "go through every batch", ...args], { baseURL: s.url, home, cwd: work, env, timeoutMs: 120_000 });
      expect(first.code).toBe(0);
      const firstEnd = s.requests.length;
      s.push(...scripted.slice(HALF).map((x) => x.reply), { text: "all done" });
      const second = await runShiro(["-c", "-p", "carry on", ...args], { baseURL: s.url, home, cwd: work, env, timeoutMs: 120_000 });
      expect(second.code).toBe(0);
      expect(s.errors).toEqual([]); // the strict server saw no broken history
      expect([usageOf(first).status, usageOf(second).status]).toEqual(["success", "success"]);
      const sessionId = usageOf(first).sessionId;
      expect(usageOf(second).sessionId).toBe(sessionId);

      const runs: CapturedRequest[][] = [s.requests.slice(seedRequests, firstEnd), s.requests.slice(firstEnd)];
      expect(runs.map((r) => r.length)).toEqual([HALF + 1, STEPS - HALF + 1]);
      let todos: Todo[] | undefined;
      let pruned = 0;
      runs.forEach((requests, run) => {
        const system = instructionsIn(requests[0]!.body);
        requests.forEach((request, r) => {
          const body = request.body;
          const where = `run ${run + 1}, request ${r + 1}`;
          expect({ where, key: body.prompt_cache_key }).toEqual({ where, key: sessionId });
          // The memory block is the one loaded when the process started: the same in every request,
          // the remember of step 15 shows only from the -c on.
          expect({ where, same: instructionsIn(body) === system }).toEqual({ where, same: true });
          expect(system).toContain(MEMORY_BLOCK_HEADER);
          expect(system).toContain(SEEDED);
          expect(system.includes(LATER)).toBe(run === 1);
          if (todos) expect({ where, list: taskListIn(body)?.endsWith(renderTodos(todos)) }).toEqual({ where, list: true });
          else expect(taskListIn(body)).toBeUndefined();
          if (JSON.stringify(body).includes(DIGEST_HEADER.slice(0, 30))) pruned++;
          const step = run * HALF + r;
          if (r < requests.length - 1 && scripted[step]?.todos) todos = scripted[step]!.todos;
        });
      });
      expect(pruned).toBeGreaterThan(10);

      // The cached share the server reported, as the session record and the result records add it up.
      const file = readdirSync(join(home, ".shiro-neko", "sessions")).find((n) => n.startsWith(sessionId) && n.endsWith(".json"))!;
      const record = JSON.parse(readFileSync(join(home, ".shiro-neko", "sessions", file), "utf8"));
      const turns = [usageOf(first).usage, usageOf(second).usage];
      expect(record.inputTokens).toBe(turns[0].inputTokens + turns[1].inputTokens);
      expect(record.cachedInputTokens).toBe(turns[0].cachedInputTokens + turns[1].cachedInputTokens);
      const share = record.cachedInputTokens / record.inputTokens;
      expect(share).toBeGreaterThan(0.8);

      // Request by request, as the server's cache saw them: a break is a request that does not reuse
      // the previous one's prefix (all of it but its tail: the task list, and the block left over).
      const cache = new PromptCache();
      const breaks: number[] = [];
      let previousTokens = 0;
      for (const [i, request] of s.requests.slice(seedRequests).entries()) {
        const cached = cache.admit(request.body);
        if (i > 0 && cached < previousTokens - 400) breaks.push(i);
        previousTokens = estimateInputTokens(request.body);
      }
      // The cuts (one every seven steps or so at this threshold) and the -c, whose memory block is new.
      expect(breaks.length).toBeLessThanOrEqual(10);
      expect(breaks).toContain(HALF + 1);
      // Priced at the cache rate: well under what the same tokens cost uncached.
      const uncached = costUsd(DEFAULT_MODEL, { inputTokens: record.inputTokens, outputTokens: record.outputTokens })!;
      expect(record.costUsd).toBeCloseTo(costUsd(DEFAULT_MODEL, record)!, 10);
      expect(record.costUsd).toBeLessThan(uncached * 0.5);
    }, 240_000);

    test("after the server refuses the thinking level, subagents still send no session prompt_cache_key", async () => {
      const brief = "List the files in this repo and report their names.";
      const s = await serve(
        { status: 400, body: { error: { message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.", type: "invalid_request_error" } } },
        { toolCalls: [{ id: "call_task1", name: "task", input: { description: "list the files", prompt: brief } }] },
        { text: "No files.", when: { firstUser: brief } },
        { text: "The repo is empty." },
      );
      const run = await runShiro(["-p", "what is here?", "-m", "gpt-5", "--json", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      const sessionId = jsonLines(run.stdout).at(-1)!.sessionId;
      const firstUser = (body: any): string => {
        const list = Array.isArray(body.input) ? body.input : body.messages;
        const first = list.find((m: any) => m.role === "user");
        return typeof first.content === "string" ? first.content : first.content.map((c: any) => c.text ?? "").join("");
      };
      const sub = s.requests.filter((r) => firstUser(r.body) === brief);
      const parent = s.requests.filter((r) => firstUser(r.body) !== brief);
      expect(sub).toHaveLength(1);
      expect(parent).toHaveLength(3);
      // The session's own requests keep the session's key; the subagent's request is not one of them.
      for (const r of parent) expect(r.body.prompt_cache_key).toBe(sessionId);
      expect(sub[0]!.body.prompt_cache_key).toBeUndefined();
    });

    test("with the compatible client no prompt_cache_key is sent", async () => {
      const s = await serve({ text: "hi" });
      expect((await runShiro(["-p", "hi", ...flags], { baseURL: s.url, env: { SHIRO_CLIENT: "compatible" } })).code).toBe(0);
      expect(s.requests[0]!.body.prompt_cache_key).toBeUndefined();
    });
  });
}
