// Multi-step tool turns against the fake server in each vendor's mode, with the client shiro picks
// for a host that is not OpenAI (SHIRO_CLIENT unset). The strict fake rejects what the vendor
// rejects (dropped reasoning, item references to a stateless server), so each test also proves
// the follow-up request was well formed for that vendor.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { VendorMode } from "../support/fake-openai.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** The client shiro would choose for this host: unset the tests' default of the OpenAI client. */
const VENDOR_ENV = { SHIRO_CLIENT: undefined };

/** Runs a two-step turn: a read_file call (with reasoning before it), then the answer. */
async function twoStepTurn(vendor: VendorMode, api: "chat" | "responses") {
  const work = tempDir();
  writeFileSync(join(work, "notes.txt"), "alpha\nbeta\n");
  const s = await serve.with({ vendor })(
    { reasoning: "I should read the notes first.", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }], usage: { input: 300, output: 40, cached: 100 } },
    { reasoning: "Two lines.", text: "notes.txt has two lines.", usage: { input: 400, output: 20 } },
  );
  const run = await runShiro(["-p", "summarise notes.txt", "--json", "--api", api], { baseURL: s.url, cwd: work, env: VENDOR_ENV });
  return { s, run, lines: run.code === 0 || run.stdout ? jsonLines(run.stdout) : [] };
}

const CHAT_VENDORS: VendorMode[] = ["mistral", "deepseek", "llamacpp", "vllm", "ollama", "openrouter", "groq", "xai", "azure"];
/** Vendors whose chat stream carries the scripted reasoning. */
const CHAT_REASONING = new Set<VendorMode>(["deepseek", "llamacpp", "vllm", "ollama", "openrouter", "groq", "xai"]);

describe("chat wire, compatible client", () => {
  for (const vendor of CHAT_VENDORS) {
    test(`${vendor}: the tool runs with its arguments, the follow-up is accepted, the answer is printed`, async () => {
      const { s, run, lines } = await twoStepTurn(vendor, "chat");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(s.requests.filter((r) => r.wire === "chat")).toHaveLength(2);
      expect(lines.find((l) => l.type === "tool-call")).toMatchObject({ tool: "read_file", input: { path: "notes.txt" } });
      expect(toolOutputsIn(s.requests[1]!.body).join("\n")).toContain("alpha");
      const result = lines.at(-1)!;
      expect(result).toMatchObject({ type: "result", status: "success", text: "notes.txt has two lines." });
      expect(result.usage.inputTokens).toBe(700);
      const reasoning = lines.filter((l) => l.type === "reasoning").map((l) => l.text).join("");
      if (CHAT_REASONING.has(vendor)) expect(reasoning).toContain("I should read the notes first.");
    });
  }

  test("deepseek: the reasoning of the tool step goes back as reasoning_content", async () => {
    const { s, run } = await twoStepTurn("deepseek", "chat");
    expect(run.code).toBe(0);
    const assistant = s.requests[1]!.body.messages.find((m: any) => m.role === "assistant");
    expect(assistant.reasoning_content).toContain("I should read the notes first.");
  });

  test("openrouter: reasoning_details go back on the tool step's message, signature intact", async () => {
    const { s, run } = await twoStepTurn("openrouter", "chat");
    expect(run.code).toBe(0);
    const assistant = s.requests[1]!.body.messages.find((m: any) => m.role === "assistant");
    expect(assistant.reasoning_details).toEqual(expect.arrayContaining([expect.objectContaining({ type: "reasoning.encrypted" })]));
  });

  test("xai: reasoning tokens reported outside completion_tokens count as output", async () => {
    const { run, lines } = await twoStepTurn("xai", "chat");
    expect(run.code).toBe(0);
    // The fake reports 40 + 20 output tokens with the reasoning left out of completion_tokens.
    expect(lines.at(-1)!.usage.outputTokens).toBe(60);
  });

  test("deepseek: cached input read from prompt_cache_hit_tokens", async () => {
    const { run, lines } = await twoStepTurn("deepseek", "chat");
    expect(run.code).toBe(0);
    expect(lines.at(-1)!.usage.cachedInputTokens ?? 0).toBe(100);
  });
});

const STATELESS: VendorMode[] = ["deepseek", "vllm", "lmstudio", "ollama", "llamacpp", "stateless"];

describe("Responses wire, a server that is not OpenAI", () => {
  for (const vendor of STATELESS) {
    test(`${vendor}: store false, the whole history inline, reasoning_text read as reasoning`, async () => {
      const { s, run, lines } = await twoStepTurn(vendor, "responses");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const bodies = s.requests.filter((r) => r.wire === "responses").map((r) => r.body);
      expect(bodies).toHaveLength(2);
      for (const body of bodies) expect(body.store).toBe(false);
      expect(JSON.stringify(bodies[1])).not.toContain("item_reference");
      expect(lines.at(-1)).toMatchObject({ status: "success", text: "notes.txt has two lines." });
      expect(lines.filter((l) => l.type === "reasoning").map((l) => l.text).join("")).toContain("I should read the notes first.");
    });
  }
});
