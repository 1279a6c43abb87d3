// Errors that say what happened, end to end: the compiled binary against the fake in vendor modes, with
// the client shiro picks for a host that is not OpenAI unless a test says otherwise. Each class: the exit
// code, the one line the user reads, the result record, and whether the request was sent again (the strict
// fake fails a test on a retry it has no reply for, and on a scripted reply never asked for).
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply, StartOptions } from "../support/fake-openai.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** The client shiro would choose for the fake's host (127.0.0.1): the compatible one. */
const BY_HOST = { SHIRO_CLIENT: undefined };

async function run(options: Omit<StartOptions, "replies">, replies: Reply[], args: { api: "chat" | "responses"; env?: Record<string, string | undefined>; json?: boolean }) {
  const work = tempDir();
  writeFileSync(join(work, "notes.txt"), "alpha\n");
  const s = await serve.with(options)(...replies);
  const result = await runShiro(["-p", "go", ...(args.json === false ? [] : ["--json"]), "--api", args.api], { baseURL: s.url, cwd: work, env: args.env ?? BY_HOST });
  const lines = args.json === false ? [] : jsonLines(result.stdout);
  return { s, result, lines, record: lines.at(-1) ?? {} };
}

describe("an error inside a 200 stream ends the turn as an error", () => {
  const cases: { name: string; options: Omit<StartOptions, "replies">; api: "chat" | "responses"; reply: Reply; env?: Record<string, string | undefined>; line: string }[] = [
    {
      name: "OpenRouter: a chunk with a top-level error beside its choices, generic message → the upstream's reason",
      options: { vendor: "openrouter" },
      api: "chat",
      reply: { text: "Let me", streamError: { message: "Provider returned error", code: 400, raw: "Upstream error: the request was blocked by a content filter" } },
      line: "provider reported an error: Google AI Studio: Upstream error: the request was blocked by a content filter",
    },
    {
      name: "Groq: event: error",
      options: { vendor: "groq" },
      api: "chat",
      reply: { streamError: { message: "Failed to call a function. Please adjust your prompt.", type: "invalid_request_error", code: "tool_use_failed" } },
      line: "provider reported an error: Failed to call a function. Please adjust your prompt.",
    },
    {
      name: "vLLM: an OpenAI-shaped error chunk",
      options: { vendor: "vllm" },
      api: "chat",
      reply: { text: "Partial", streamError: { message: "The decoder prompt is longer than the maximum model length", code: 400 } },
      line: "provider reported an error: The decoder prompt is longer than the maximum model length",
    },
    {
      name: "OpenAI Responses: error then response.failed, after output",
      options: {},
      api: "responses",
      env: { SHIRO_CLIENT: "openai" },
      reply: { text: "Partial", streamError: { message: "The model produced invalid content.", code: "invalid_prompt" } },
      line: "provider reported an error: The model produced invalid content.",
    },
    {
      name: "OpenAI Responses: an error event alone, before output",
      options: {},
      api: "responses",
      env: { SHIRO_CLIENT: "openai" },
      reply: { streamError: { message: "Invalid prompt: your prompt was flagged.", code: "invalid_prompt", form: "error" } },
      line: "provider reported an error: Invalid prompt: your prompt was flagged.",
    },
    {
      name: "a stateless Responses server: response.failed alone",
      options: { vendor: "lmstudio" },
      api: "responses",
      reply: { text: "Partial", streamError: { message: "Model crashed while generating", form: "failed" } },
      line: "provider reported an error: Model crashed while generating",
    },
  ];
  for (const c of cases)
    test(c.name, async () => {
      const { s, result, lines, record } = await run(c.options, [c.reply], { api: c.api, env: c.env });
      expect(result.code).toBe(1);
      expect(record).toMatchObject({ type: "result", status: "error", exitCode: 1, error: c.line });
      expect(lines.filter((l) => l.type === "error").map((l) => l.message)).toEqual([c.line]);
      expect(lines.find((l) => l.type === "done")).toMatchObject({ status: "error" });
      expect(s.requests.filter((r) => r.wire !== "other")).toHaveLength(1); // a 400-class error is not sent again
    });

  test("the OpenAI client (set by hand) does not drop an error chunk beside its choices either", async () => {
    for (const text of ["Let me", undefined]) {
      const reply: Reply = { text, streamError: { message: "Provider returned error", code: 400, raw: "Upstream error: the request was blocked" } };
      const { result, record } = await run({ vendor: "openrouter" }, [reply], { api: "chat", env: { SHIRO_CLIENT: "openai" } });
      expect(result.code).toBe(1);
      expect(record.status).toBe("error");
      expect(record.error).toMatch(/^provider (reported an error|returned 400): Google AI Studio: Upstream error: the request was blocked$/);
    }
  });

  test("in text mode the server's message is one line on stderr, the exit code 1", async () => {
    const { result } = await run({ vendor: "groq" }, [{ streamError: { message: "Request blocked.\nContact support.", type: "invalid_request_error" } }], { api: "chat", json: false });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: provider reported an error: Request blocked. Contact support.\n");
    expect(result.stderr).not.toContain("    at ");
  });

  test("a 5xx-coded error before any output is retried, then the answer is printed", async () => {
    const { result, record } = await run({ vendor: "openrouter" }, [{ streamError: { message: "Provider returned error", code: 502, raw: "upstream connect error" } }, { text: "second time" }], { api: "chat" });
    expect(result.code).toBe(0);
    expect(record).toMatchObject({ status: "success", text: "second time" });
    expect(jsonLines(result.stdout).find((l) => l.type === "notice")?.message).toStartWith("provider reported an error: Google AI Studio: upstream connect error; retrying in");
  });
});

describe("output cut off at the limit", () => {
  for (const api of ["chat", "responses"] as const) {
    test(`${api}: text before the cut is the answer, with a notice and truncated: true`, async () => {
      const { result, lines, record } = await run({ vendor: api === "chat" ? "vllm" : "openai" }, [{ text: "The first half of the answer", finish: "length" }], { api, env: api === "chat" ? BY_HOST : { SHIRO_CLIENT: "openai" } });
      expect(result.code).toBe(0);
      expect(record).toMatchObject({ status: "success", truncated: true, text: "The first half of the answer" });
      expect(lines.filter((l) => l.type === "notice").map((l) => l.message)).toEqual([
        'the answer was cut off at the output limit; continue with shiro -c -p "go on", or use a model with a larger output limit',
      ]);
    });

    test(`${api}: nothing but reasoning before the cut exits 1`, async () => {
      const { result, record } = await run({ vendor: api === "chat" ? "deepseek" : "stateless" }, [{ reasoning: "Let me think about this for a long", finish: "length" }], { api });
      expect(result.code).toBe(1);
      expect(record).toMatchObject({ status: "error", exitCode: 1, truncated: true, error: "the answer was cut off at the output limit before any text or tool call" });
    });
  }

  test("a normal answer has truncated: false", async () => {
    const { record } = await run({ vendor: "vllm" }, [{ text: "done" }], { api: "chat" });
    expect(record).toMatchObject({ status: "success", truncated: false });
  });

  test("text mode: the notice is on stderr", async () => {
    const { result } = await run({ vendor: "vllm" }, [{ text: "Half", finish: "length" }], { api: "chat", json: false });
    expect(result.stdout).toBe("Half\n");
    expect(result.stderr).toContain("the answer was cut off at the output limit");
    expect(result.code).toBe(0);
  });
});

describe("a reply of a shape the client cannot use", () => {
  test("Mistral's tool call without index, read by the OpenAI client: one short line, one request, exit 1", async () => {
    const { s, result, record } = await run({ vendor: "mistral" }, [{ toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] }], { api: "chat", env: { SHIRO_CLIENT: "openai" } });
    expect(result.code).toBe(1);
    expect(s.requests).toHaveLength(1);
    expect(record.error).toBe('the server sent a tool call without "index"; shiro cannot read this reply (not retried: it would fail the same way)');
    expect(result.stdout).not.toContain("invalid_union");
  });

  test("the same stream through the client chosen by host works", async () => {
    const { result, record } = await run({ vendor: "mistral" }, [{ toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] }, { text: "one line" }], { api: "chat" });
    expect(result.code).toBe(0);
    expect(record).toMatchObject({ status: "success", text: "one line" });
  });
});

describe("a server that fails a request carrying item references", () => {
  // Reasoning and text: the OpenAI client refers to those items by id when store is on.
  const step1: Reply = { reasoning: "Read it first.", text: "Reading the notes.", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] };
  const refsIn = (body: any) => JSON.stringify(body.input ?? []).includes('"item_reference"');

  test("a stateless server's 400 (unknown item type): the history goes inline, once, and the turn completes", async () => {
    // The OpenAI client (a user who set it by hand) keeps store on, so it sends item references.
    const { s, result, lines, record } = await run({ vendor: "stateless" }, [step1, { text: "alpha it is" }], { api: "responses", env: { SHIRO_CLIENT: "openai" } });
    serve.allowRejections("the stateless fake refuses the item_reference request once; that refusal is what is repaired");
    const responses = s.requests.filter((r) => r.wire === "responses");
    expect(responses.map((r) => refsIn(r.body))).toEqual([false, true, false]);
    expect(s.errors).toHaveLength(1);
    expect(result.code).toBe(0);
    expect(record).toMatchObject({ status: "success", text: "alpha it is" });
    // The server did not say an item was lost, so the note does not claim it.
    expect(lines.filter((l) => l.type === "notice").map((l) => l.message)).toEqual(["the provider answered 400 to a request that pointed at stored items; sent the history inline instead"]);
  });

  test("a 500 in the server's own words (vLLM's 'role'): repaired the same way, not retried as a 500", async () => {
    const { s, result, lines, record } = await run({}, [step1, { status: 500, body: { error: { message: "'role'", type: "InternalServerError", param: null, code: 500 } } }, { text: "alpha it is" }], { api: "responses", env: { SHIRO_CLIENT: "openai" } });
    const responses = s.requests.filter((r) => r.wire === "responses");
    expect(responses.map((r) => refsIn(r.body))).toEqual([false, true, false]);
    expect(result.code).toBe(0);
    expect(record).toMatchObject({ status: "success", text: "alpha it is" });
    expect(lines.some((l) => l.type === "notice" && /retrying/.test(l.message))).toBe(false);
    expect(lines.filter((l) => l.type === "notice").map((l) => l.message)).toEqual(["the provider answered 500 to a request that pointed at stored items; sent the history inline instead"]);
  });

  test("an error answering an inline request is not mistaken for it", async () => {
    const { s, result, record } = await run({ vendor: "stateless" }, [step1, { status: 400, body: { error: { message: "bad request", type: "invalid_request_error" } } }], { api: "responses" });
    expect(s.requests.filter((r) => r.wire === "responses")).toHaveLength(2);
    expect(result.code).toBe(1);
    expect(record.error).toBe("provider returned 400: bad request");
  });
});

describe("a call whose arguments are not valid JSON", () => {
  for (const api of ["chat", "responses"] as const) {
    test(`${api}: is answered in words (what was sent, what to do), not the SDK's error names, and the model can try again`, async () => {
      const { s, result } = await run(
        {},
        [{ toolCalls: [{ name: "read_file", input: '{"path": "notes.txt"' }] }, { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] }, { text: "alpha it is" }],
        { api, json: false, env: { ...BY_HOST, SHIRO_CLIENT: api === "responses" ? "openai" : undefined } },
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("alpha it is\n");
      expect(result.stderr).toContain("✗ read_file: The arguments of this read_file call are not valid JSON");
      expect(result.stderr).not.toContain("AI_");
      const told = JSON.stringify(s.requests[1]!.body);
      expect(told).toContain("are not valid JSON, so it did not run");
      expect(told).toContain("Send the call again with its arguments as one complete JSON object.");
      expect(told).not.toContain("AI_");
      expect(s.errors).toEqual([]);
    });
  }
});
