// Issue 14 end to end: the binary against the strict fake server with a small context window. The
// window comes from each server's metadata, or is learned from the refusal when nothing says it;
// an overflow is recovered from once and never repeated; one that no pruning fixes ends with a
// clear error and an intact session. The fake refuses anything over the window (s.overflows) and
// any broken history (s.errors), on both wires.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelMessage } from "ai";
import { validateHistory } from "../../lib/prune/validate.ts";
import type { OverflowStyle, Reply, VendorMode } from "../support/fake-openai.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** No stated window (the harness's default), and the client shiro picks for a host that is not OpenAI. */
const CONTEXT_ENV = { SHIRO_CONTEXT_WINDOW: undefined, SHIRO_CLIENT: undefined };
const MODEL = "qwen2.5-7b";
/**
 * A 12k window: small enough that a long task must be pruned to fit. (shiro's tool definitions and
 * instructions take about 2.9k of it; the small-window test has a window too small to work in.)
 */
const WINDOW = 12_288;
const APIS = ["responses", "chat"] as const;

/** Six files of about 750 estimated tokens each: a dozen reads are far more than a 12k window holds. */
function workspace(): string {
  const work = tempDir();
  for (let i = 0; i < 6; i++) writeFileSync(join(work, `part${i}.txt`), Array.from({ length: 60 }, (_, n) => `line ${n} of part ${i}: ${"y".repeat(30)}`).join("\n"));
  return work;
}

/** A long tool loop: `steps` reads, then the answer. */
function longTask(steps: number, answer = "All parts read."): Reply[] {
  const replies: Reply[] = Array.from({ length: steps }, (_, i) => ({ text: i % 4 === 0 ? `Reading part ${i % 6}.` : undefined, toolCalls: [{ name: "read_file", input: { path: `part${i % 6}.txt` } }] }));
  replies.push({ text: answer });
  return replies;
}

const notices = (stdout: string) => jsonLines(stdout).filter((l) => l.type === "notice").map((l) => l.message as string);
const probes = (s: { requests: { wire: string; method: string; path: string }[] }) => s.requests.filter((r) => r.wire === "other").map((r) => `${r.method} ${r.path}`);

/** What `shiro doctor` would report for a saved history (a saved item reference without its reasoning item is valid). */
const problems = (messages: ModelMessage[]) => validateHistory(messages).filter((p) => p.code !== "reference-without-reasoning");

function sessionRecord(home: string): { messages: ModelMessage[] } {
  const dir = join(home, ".shiro-neko", "sessions");
  const name = readdirSync(dir).find((n) => n.endsWith(".json"))!;
  return JSON.parse(readFileSync(join(dir, name), "utf8"));
}

/** Each server's metadata endpoint, as shiro asks it when the preset names the server. */
const METADATA: [VendorMode, string][] = [
  ["vllm", "GET /v1/models"],
  ["lmstudio", `GET /api/v0/models/${MODEL}`],
  ["llamacpp", "GET /props"],
  ["ollama", "POST /api/show"],
  ["openrouter", "GET /v1/models"],
];

describe("the window from the server's metadata: a long task on a 12k model never overflows", () => {
  for (const api of APIS) {
    for (const [vendor, endpoint] of METADATA) {
      test(`${vendor} over ${api}: asked once at ${endpoint}; the window it runs with, not the model's maximum`, async () => {
        const work = workspace();
        // maxContext: what the model could take; the server runs it with WINDOW, and shiro must use that.
        const s = await serve.with({ vendor, models: { [MODEL]: { contextWindow: WINDOW, maxContext: 32_768 } } })(...longTask(14));
        const run = await runShiro(["-p", "read every part", "--json", "--provider", vendor, "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(s.overflows).toEqual([]);
        expect(probes(s)).toEqual([endpoint]);
        const lines = jsonLines(run.stdout);
        expect(lines.filter((l) => l.type === "compacted")).toHaveLength(1);
        expect(notices(run.stdout)).toEqual([]);
        expect(lines.at(-1)).toMatchObject({ status: "success", text: "All parts read." });
      }, 60_000);
    }
  }

  test("a server on this machine of unknown kind is detected once; the next session asks nothing (cached)", async () => {
    const work = workspace();
    const home = tempDir();
    const s = await serve.with({ vendor: "ollama", models: { [MODEL]: { contextWindow: WINDOW, maxContext: 32_768 } } })(...longTask(10), ...longTask(4, "More read."));
    const first = await runShiro(["-p", "read every part", "--api", "chat", "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
    expect(first.code).toBe(0);
    expect(probes(s)).toEqual(["GET /v1/models", "GET /props", "POST /api/show"]);
    const second = await runShiro(["-c", "-p", "read more", "--api", "chat", "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
    expect(second.code).toBe(0);
    expect(probes(s)).toHaveLength(3);
    expect(s.overflows).toEqual([]);
  }, 60_000);
});

describe("no metadata: the window is learned from the refusal", () => {
  for (const api of APIS) {
    test(`${api}: a refusal naming the limit is recovered from once, with one notice; later steps and a -c run stay under it`, async () => {
      const work = workspace();
      const home = tempDir();
      const s = await serve.with({ vendor: "openai", overflow: "vllm", models: { [MODEL]: { contextWindow: WINDOW } } })(...longTask(14), ...longTask(6, "More read."));
      const run = await runShiro(["-p", "read every part", "--json", "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
      expect(run.code).toBe(0);
      expect(s.overflows).toHaveLength(1);
      expect(notices(run.stdout)).toEqual(["the model's context is 12,288 tokens, smaller than shiro assumed; pruned the request to fit and carried on"]);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ status: "success", text: "All parts read." });
      // A new process on the same session remembers the window: no second refusal, no notice.
      const again = await runShiro(["-c", "-p", "read more", "--json", "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
      expect(again.code).toBe(0);
      expect(s.overflows).toHaveLength(1);
      expect(notices(again.stdout)).toEqual([]);
      expect(problems(sessionRecord(home).messages)).toEqual([]);
    }, 60_000);

    test(`${api}: a refusal that names no limit (Groq's wording) prunes harder and recovers`, async () => {
      const work = workspace();
      const s = await serve.with({ vendor: "groq", models: { [MODEL]: { contextWindow: WINDOW } } })(...longTask(14));
      const run = await runShiro(["-p", "read every part", "--json", "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
      expect(run.code).toBe(0);
      expect(s.overflows).toHaveLength(1);
      expect(s.overflows[0]!.message).not.toMatch(/\d/);
      expect(notices(run.stdout)).toEqual(["the model's context is smaller than shiro assumed (the server did not say how small); pruned the request harder and carried on"]);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ status: "success" });
    }, 60_000);
  }

  test("OpenAI's context_length_exceeded inside a 200 Responses stream is recovered from the same way", async () => {
    const work = workspace();
    const s = await serve.with({ vendor: "openai", models: { [MODEL]: { contextWindow: WINDOW } } })(...longTask(14));
    const run = await runShiro(["-p", "read every part", "--json", "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
    expect(run.code).toBe(0);
    expect(s.overflows.map((o) => o.status)).toEqual([200]);
    expect(notices(run.stdout)).toHaveLength(1);
  }, 60_000);

  for (const [style, api] of [["openai", "chat"], ["llamacpp", "responses"]] as [OverflowStyle, "chat" | "responses"][]) {
    test(`${style}'s wording over ${api} (the issue's example form) is learned too`, async () => {
      const work = workspace();
      const s = await serve.with({ vendor: "openai", overflow: style, models: { [MODEL]: { contextWindow: WINDOW } } })(...longTask(16));
      const run = await runShiro(["-p", "read every part", "--json", "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
      expect(run.code).toBe(0);
      expect(s.overflows).toHaveLength(1);
      expect(notices(run.stdout)).toEqual(["the model's context is 12,288 tokens, smaller than shiro assumed; pruned the request to fit and carried on"]);
    }, 60_000);
  }
});

describe("a request no pruning can fit", () => {
  for (const api of APIS) {
    test(`${api}: a message larger than the window is told to send less, exit 1, nothing re-sent, and the session intact`, async () => {
      const home = tempDir();
      const s = await serve.with({ vendor: "openai", overflow: "vllm", models: { [MODEL]: { contextWindow: WINDOW } } })();
      // The user's own message is never pruned, and this one alone is larger than the window.
      const prompt = `please review this:\n${"z".repeat(40_000)}`;
      const run = await runShiro(["-p", prompt, "--api", api, "-m", MODEL], { baseURL: s.url, home, env: CONTEXT_ENV });
      expect(run.code).toBe(1);
      // Neither /compact nor fewer tools could help: only a shorter message.
      expect(run.stderr).toMatch(/the message is about 10,\d{3} tokens \(estimated\), more than the model's context of 12,288 tokens can take: send less of it/);
      expect(run.stderr).not.toContain("/compact");
      expect(s.overflows).toHaveLength(1);
      const { messages } = sessionRecord(home);
      expect(problems(messages)).toEqual([]);
      expect(JSON.stringify(messages[0])).toContain("please review this");
    }, 30_000);
  }
});

describe("a message that fits the window, in a session that no longer does", () => {
  for (const api of APIS) {
    test(`${api}: with a low compactAtTokens, the advice is still /compact, not that the message is too large`, async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve.with({ vendor: "openai", overflow: "vllm", models: { [MODEL]: { contextWindow: WINDOW } } })({ text: "one" }, { text: "two" });
      // Each message is about 3,500 estimated tokens: one fits the 12k window easily, three do not.
      // compactAtTokens is below one message, and must not be taken for what the window leaves.
      const env = { ...CONTEXT_ENV, SHIRO_COMPACT_AT: "2500" };
      for (const [i, resume] of [[0, []], [1, ["-c"]], [2, ["-c"]]] as const) {
        const run = await runShiro(["-p", `part ${i}:\n${"z ".repeat(7_000)}`, ...resume, "--api", api, "-m", MODEL], { baseURL: s.url, home, cwd: work, env });
        if (i < 2) {
          expect(run.code).toBe(0);
          continue;
        }
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("/compact");
        expect(run.stderr).not.toContain("send less of it");
      }
      expect(s.overflows).toHaveLength(1);
    }, 60_000);
  }
});

describe("known before it hurts", () => {
  test("an ollama model running with 6,144 tokens: one warning at start, with ollama's fix", async () => {
    const s = await serve.with({ vendor: "ollama", models: { [MODEL]: { contextWindow: 6144, maxContext: 32_768 } } })({ text: "hello" });
    const run = await runShiro(["-p", "hi", "--json", "--provider", "ollama", "-m", MODEL], { baseURL: s.url, env: CONTEXT_ENV });
    expect(run.code).toBe(0);
    const warnings = notices(run.stdout);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith(`${MODEL} has a context of 6,144 tokens (ollama /api/show), too small to work in`);
    expect(warnings[0]).toContain("OLLAMA_CONTEXT_LENGTH=32768");
  });

  for (const api of APIS) {
    test(`${api}: a configured output limit is sent with every request and fits beside it`, async () => {
      const work = workspace();
      const home = tempDir();
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ models: { [MODEL]: { contextWindow: WINDOW, maxOutputTokens: 1000 } } }));
      // OpenAI's rule: refused when the input plus the output asked for exceed the window.
      const s = await serve.with({ vendor: "openai", models: { [MODEL]: { contextWindow: WINDOW } } })(...longTask(12));
      const run = await runShiro(["-p", "read every part", "--api", api, "-m", MODEL, "--max-steps", "40"], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
      expect(run.code).toBe(0);
      const turns = s.requests.filter((r) => r.wire !== "other");
      expect(turns.map((r) => r.body.max_tokens ?? r.body.max_completion_tokens ?? r.body.max_output_tokens)).toEqual(turns.map(() => 1000));
      expect(s.overflows).toEqual([]);
      expect(probes(s)).toEqual([]); // configured: nothing asked
    }, 60_000);
  }

  test("shiro doctor shows the window and where it came from", async () => {
    const home = tempDir();
    const work = tempDir();
    const s = await serve.with({ vendor: "vllm", models: { [MODEL]: { contextWindow: WINDOW } } })({ text: "hello" });
    const flags = ["--provider", "vllm", "-m", MODEL];
    expect((await runShiro(["-p", "hi", ...flags], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV })).code).toBe(0);
    const doctor = await runShiro(["doctor", ...flags], { baseURL: s.url, cwd: work, home, env: CONTEXT_ENV });
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain(`context window: 12,288 tokens for ${MODEL} at ${s.url} (vLLM /models, cached).`);
    expect(doctor.stdout).toMatch(/keeps 3,072 for the answer, about [\d,]+ for the instructions and tools, and prunes the conversation past [\d,]+ estimated tokens/);
    expect(doctor.stdout).toContain("is healthy");
    // The session asked once for the window; doctor asks for the list (is the server up, is the model on it) and takes the window from the cache.
    expect(probes(s)).toEqual(["GET /v1/models", "GET /v1/models"]);
  });
});
