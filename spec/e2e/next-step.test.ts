// Errors with a next step: what failed, and what to do about it, in one line.
import { describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { runShiro } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("errors with a next step", () => {
  test("a local server that is not running: the URL, no retries, no advice from Bun", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runShiro(["-p", "hi", "--api", "chat"], { baseURL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`could not connect to ${url} (connection refused): is the server running?`);
    expect(run.stderr).not.toContain("retrying");
    expect(run.stderr).not.toContain("verbose");
    expect(run.stderr).not.toContain("Is the computer able");
  });

  test("a connection cut mid-answer says so without Bun's advice to developers", async () => {
    const s = await serve({ fault: "reset", text: "Some partial" });
    const run = await runShiro(["-p", "hi", "--api", "chat"], { baseURL: s.url, env: { SHIRO_MAX_RETRIES: "0" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the connection to the provider broke");
    expect(run.stderr).not.toContain("verbose");
    expect(run.stderr).not.toContain("fetch()");
  });

  test("a 401 names where the key came from", async () => {
    const s = await serve({ status: 401, body: { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } } });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, env: { SHIRO_API_KEY: "sk-test-wrong-key-1234" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the key came from SHIRO_API_KEY: check it is right for");
  });

  test("a 401 without a key names the variables this preset reads, not a vague 'the preset's variable'", async () => {
    const s = await serve({ status: 401, body: { error: { message: "Missing key.", type: "invalid_request_error" } } });
    const run = await runShiro(["-p", "hi", "--provider", "groq", "--api", "chat", "-m", "llama-3.3-70b"], { baseURL: s.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no key was set (SHIRO_API_KEY or GROQ_API_KEY, or "apiKey" in the config file): check it is right for');
  });

  test("a provider with no model of its own, given none, is told to choose one before anything is sent", async () => {
    const s = await serve();
    const run = await runShiro(["-p", "hi", "--provider", "ollama"], { baseURL: s.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('shiro: ollama has no default model: choose one with --model <id>, SHIRO_MODEL or "model" in the config (shiro doctor --provider ollama lists the models the server has).\n');
    expect(s.requests).toHaveLength(0);
    const chosen = await serve({ text: "hello" });
    const ok = await runShiro(["-p", "hi", "--provider", "ollama", "-m", "qwen3"], { baseURL: chosen.url });
    expect(ok.code).toBe(0);
    expect(chosen.requests[0]!.body.model).toBe("qwen3");
  });

  test("no key for a remote preset: the line names the variables that preset reads (never OPENAI_API_KEY for groq)", async () => {
    const run = await runShiro(["-p", "hi", "--provider", "groq"], { env: { OPENAI_API_KEY: "sk-openai-key-not-for-groq" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith("shiro: no API key for https://api.groq.com/openai/v1: set SHIRO_API_KEY or GROQ_API_KEY, or \"apiKey\" in ");
    expect(run.stderr).not.toContain("OPENAI_API_KEY");
  });

  test("a 404 on the Responses wire suggests --api chat", async () => {
    const s = await serve({ status: 404, body: { error: { message: "Not Found", type: "not_found" } } });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("if this server only speaks Chat Completions, run with --api chat");
  });

  for (const api of ["responses", "chat"] as const) {
    test(`${api}: a 404 from a base URL without /v1 says to add it, in the first run and in doctor`, async () => {
      const s = await serve();
      serve.allowRejections("the request goes to /responses or /chat/completions without /v1, which the fake does not serve");
      const bare = s.url.replace(/\/v1$/, "");
      const run = await runShiro(["-p", "hi", "--api", api], { baseURL: bare });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`has no version in its path, where most servers serve their API: try --base-url ${bare}/v1`);
      expect(run.stderr).not.toContain("--api chat"); // that would not help
      const doctor = await runShiro(["doctor", "--api", api], { baseURL: bare });
      expect(doctor.code).toBe(0); // a warning: some servers do work without a version
      expect(doctor.stdout).toContain(`warn  server: ${bare} answers, but has no model list (${bare}/models answered HTTP 404) and no version in its path\n`);
      expect(doctor.stdout).toContain(`use --base-url ${bare}/v1\n`);
    });
  }
});
