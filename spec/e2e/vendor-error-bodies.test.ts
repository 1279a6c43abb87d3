// Error bodies in the forms other vendors use, end to end through the binary and the fake, on both wires:
// Google's list-wrapped body, a gateway's message that is its upstream's body as JSON text, the context
// refusals of Gemini and xAI, and a 429 that means a spent quota rather than a rate limit.
import { describe, expect, test } from "bun:test";
import type { Reply } from "../support/fake-openai.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** The client shiro would choose for the fake's host (127.0.0.1): the compatible one. */
const BY_HOST = { SHIRO_CLIENT: undefined };
const APIS = ["chat", "responses"] as const;

async function run(api: "chat" | "responses", replies: Reply[]) {
  const s = await serve.with({ vendor: api === "chat" ? "openai" : "stateless" })(...replies);
  const result = await runShiro(["-p", "go", "--json", "--api", api], { baseURL: s.url, cwd: tempDir(), env: BY_HOST });
  const lines = jsonLines(result.stdout);
  return { s, result, lines, record: lines.at(-1) ?? {} };
}

/** Gemini's OpenAI-compatible endpoint, like Google's other APIs, sends its error object inside a list. */
const listWrapped = (code: number, message: string, status: string) =>
  JSON.stringify([{ error: { code, message, status, details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: status }] } }], null, 2);

describe("a wrapped error body is shown as its message, in one line", () => {
  for (const api of APIS) {
    test(`${api}: Google's list-wrapped body`, async () => {
      const body = listWrapped(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT");
      const { result, record } = await run(api, [{ status: 400, body }]);
      expect(result.code).toBe(1);
      expect(record).toMatchObject({ status: "error", error: "provider returned 400: API key not valid. Please pass a valid API key." });
    });

    test(`${api}: a gateway's message holding its upstream's error body as JSON text`, async () => {
      const upstream = JSON.stringify({ error: { code: 400, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" } }, null, 2);
      const { result, record } = await run(api, [{ status: 400, body: { error: { message: upstream, code: 400, status: "Bad Request" } } }]);
      expect(result.code).toBe(1);
      expect(record.error).toBe("provider returned 400: Request contains an invalid argument.");
    });
  }
});

describe("a context refusal that persists after the request was cut to fit ends with the server's own words", () => {
  const refusals = [
    { vendor: "Gemini", body: listWrapped(400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", "INVALID_ARGUMENT"), said: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)." },
    { vendor: "xAI", body: { code: "Client specified an invalid argument", error: "This model's maximum prompt length is 131072\nbut the request contains 140000 tokens." }, said: "This model's maximum prompt length is 131072 but the request contains 140000 tokens." },
  ];
  for (const api of APIS)
    for (const r of refusals)
      test(`${api}: ${r.vendor}`, async () => {
        const { s, result, record } = await run(api, [{ status: 400, body: r.body }, { status: 400, body: r.body }]);
        expect(result.code).toBe(1);
        expect(record.status).toBe("error");
        expect(record.error).toContain("the server still refused the request after it was pruned to fit");
        expect(record.error).toEndWith(`The session is intact. The server said: "${r.said}"`);
        expect(s.requests.filter((req) => req.wire !== "other")).toHaveLength(2); // pruned and sent once more, then no more
      });
});

describe("context refusals in other vendors' words are recognised, and the request is cut to fit", () => {
  const refusals = [
    { vendor: "Gemini", status: 400, body: listWrapped(400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", "INVALID_ARGUMENT"), window: "1,048,576" },
    { vendor: "xAI", status: 400, body: { code: "Client specified an invalid argument", error: "This model's maximum prompt length is 131072 but the request contains 140000 tokens." }, window: "131,072" },
  ];
  for (const api of APIS)
    for (const r of refusals)
      test(`${api}: ${r.vendor}`, async () => {
        const { s, result, lines, record } = await run(api, [{ status: r.status, body: r.body }, { text: "fits now" }]);
        expect(result.code).toBe(0);
        expect(record).toMatchObject({ status: "success", text: "fits now" });
        const notices = lines.filter((l) => l.type === "notice").map((l) => l.message as string);
        expect(notices.some((n) => n.includes(`${r.window} tokens`) && n.includes("pruned the request to fit"))).toBe(true);
        expect(s.requests.filter((r) => r.wire !== "other")).toHaveLength(2);
      });
});

describe("a 429 for a spent quota is not retried", () => {
  for (const api of APIS)
    test(`${api}: insufficient_quota ends the turn at once with what to do`, async () => {
      const body = { error: { message: "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", param: null, code: "insufficient_quota" } };
      const { s, result, lines, record } = await run(api, [{ status: 429, body }]);
      expect(result.code).toBe(1);
      expect(s.requests.filter((r) => r.wire !== "other")).toHaveLength(1);
      expect(lines.filter((l) => l.type === "notice")).toEqual([]);
      expect(record.error).toStartWith("provider returned 429: You exceeded your current quota, please check your plan and billing details; ");
      expect(record.error).toContain("not retried");
      expect(record.error).toContain("add credit or raise the limit");
    });

  test("a plain rate limit is still retried", async () => {
    const body = { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } };
    const { result, record } = await run("chat", [{ status: 429, body, headers: { "retry-after": "0" } }, { text: "after the wait" }]);
    expect(result.code).toBe(0);
    expect(record.text).toBe("after the wait");
  });
});
