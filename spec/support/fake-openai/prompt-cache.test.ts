// The fake's prompt cache: what it reports as cached, on both wires, for the request streams a client sends.
import { afterEach, describe, expect, test } from "bun:test";
import { startFakeServer } from "../fake-openai.ts";
import { estimateInputTokens } from "./context-limit.ts";
import { CACHE_BLOCK_TOKENS, cachedTokensFor, MIN_CACHED_TOKENS, PromptCache, promptText } from "./prompt-cache.ts";
import { post } from "./testing.ts";
import type { FakeServer } from "./types.ts";

let server: FakeServer;
afterEach(() => server?.close());

const SYSTEM = "You are a careful assistant. ".repeat(200); // ~1,400 tokens: over the minimum on its own
const turn = (i: number) => `message ${i}: ${"lorem ipsum ".repeat(60)}`;

type WireCase = { wire: "chat" | "responses"; body: (system: string, said: string[], extra?: object) => any; cached: (res: any) => number; input: (res: any) => number };
const CASES: WireCase[] = [
  {
    wire: "chat",
    body: (system, said, extra) => ({ model: "gpt-test", messages: [{ role: "system", content: system }, ...said.map((content) => ({ role: "user", content }))], ...extra }),
    cached: (res) => res.json.usage.prompt_tokens_details.cached_tokens,
    input: (res) => res.json.usage.prompt_tokens,
  },
  {
    wire: "responses",
    body: (system, said, extra) => ({ model: "gpt-test", instructions: system, input: said.map((content) => ({ role: "user", content })), ...extra }),
    cached: (res) => res.json.usage.input_tokens_details.cached_tokens,
    input: (res) => res.json.usage.input_tokens,
  },
];

test("a shared prefix is cached from 1,024 tokens on, in 128-token blocks", () => {
  expect(cachedTokensFor(4 * 1023)).toBe(0);
  expect(cachedTokensFor(4 * 1024)).toBe(1024);
  expect(cachedTokensFor(4 * (1024 + 127))).toBe(1024);
  expect(cachedTokensFor(4 * (1024 + 128))).toBe(1024 + 128);
  expect(cachedTokensFor(4 * 10_000)).toBe(1024 + Math.floor((10_000 - 1024) / 128) * 128);
});

test("the prompt compared is as long as the fake's token estimate (context-limit.ts)", () => {
  const body = { model: "m", instructions: "be brief", input: [{ role: "user", content: "hi" }], tools: [{ type: "function", name: "f", parameters: {} }] };
  const chars = JSON.stringify(body.tools).length + body.instructions.length + JSON.stringify(body.input).length;
  expect(promptText(body).length).toBe(chars);
  expect(estimateInputTokens(body)).toBe(Math.ceil(chars / 4));
});

describe("which earlier prompt a request is matched against", () => {
  const body = (system: string, said: string[]) => ({ model: "m", instructions: system, input: said.map((content) => ({ role: "user", content })) });
  const long = (i: number) => body(SYSTEM, [turn(1), turn(i)]);

  test("the longest prefix shared with any kept prompt counts, not only the latest one's", () => {
    const cache = new PromptCache();
    cache.admit(long(2));
    cache.admit(body("Other. " + SYSTEM, [turn(1)])); // the latest shares nothing
    const again = long(2);
    expect(cache.admit(again)).toBe(cachedTokensFor(promptText(again).length));
    // Partly shared: the blocks up to where the two differ.
    const differs = long(3);
    const shared = [...promptText(differs)].findIndex((ch, i) => ch !== promptText(long(2))[i]);
    expect(cache.admit(differs)).toBe(cachedTokensFor(shared));
    expect(cachedTokensFor(shared)).toBeGreaterThanOrEqual(MIN_CACHED_TOKENS);
  });

  test("two prompts that differ only in an emoji split by a block boundary do not share that block", () => {
    const cache = new PromptCache();
    // The instructions come first in the prompt text: the emoji's halves sit on either side of character 5,120.
    const withEmoji = (emoji: string) => ({ model: "m", instructions: "a".repeat(5119) + emoji + "b".repeat(5120), input: [] });
    expect(promptText(withEmoji("😀")).slice(5119, 5121)).toBe("😀");
    cache.admit(withEmoji("😀"));
    expect(cache.admit(withEmoji("😁"))).toBe(cachedTokensFor(5120));
  });

  test("a prompt is forgotten after 16 later ones with the same key", () => {
    const cache = new PromptCache();
    cache.admit(long(2));
    for (let i = 0; i < 15; i++) cache.admit(body(`Other ${i}. ` + SYSTEM, [turn(1)]));
    expect(cache.admit(long(2))).toBeGreaterThan(0); // the 16th: still kept
    const fresh = new PromptCache();
    fresh.admit(long(2));
    for (let i = 0; i < 16; i++) fresh.admit(body(`Other ${i}. ` + SYSTEM, [turn(1)]));
    expect(fresh.admit(long(2))).toBe(0);
  });
});

for (const c of CASES) {
  describe(`prompt caching on the ${c.wire} wire`, () => {
    const path = c.wire === "chat" ? "/chat/completions" : "/responses";
    const send = (body: unknown) => post(server, path, body);

    test("a request that repeats the previous one's prefix gets that prefix cached, in whole blocks", async () => {
      server = await startFakeServer({ replies: [{ text: "a" }, { text: "b" }, { text: "c" }] });
      const first = await send(c.body(SYSTEM, [turn(1)]));
      expect(c.cached(first)).toBe(0); // nothing seen yet
      const secondBody = c.body(SYSTEM, [turn(1), turn(2)]);
      const second = await send(secondBody);
      const shared = promptText(c.body(SYSTEM, [turn(1)])).length - 1; // all but the closing `]`
      expect(c.cached(second)).toBe(cachedTokensFor(shared));
      expect(c.cached(second)).toBeGreaterThan(Math.floor(shared / 4) - CACHE_BLOCK_TOKENS);
      expect((c.cached(second) - MIN_CACHED_TOKENS) % CACHE_BLOCK_TOKENS).toBe(0);
      expect(c.input(second)).toBe(estimateInputTokens(secondBody));
      // The same request again: all of it, but the part of a block left over.
      const third = await send(secondBody);
      expect(c.cached(third)).toBe(cachedTokensFor(promptText(secondBody).length));
    });

    test("a change early in the request breaks the cache; a short request is never cached", async () => {
      server = await startFakeServer({ replies: [{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }] });
      await send(c.body(SYSTEM, [turn(1)]));
      expect(c.cached(await send(c.body("Changed. " + SYSTEM, [turn(1), turn(2)])))).toBe(0);
      await send(c.body("short", ["hi"]));
      expect(c.cached(await send(c.body("short", ["hi", "again"])))).toBe(0);
    });

    test("requests with a different prompt_cache_key do not share a cache", async () => {
      server = await startFakeServer({ replies: [{ text: "a" }, { text: "b" }, { text: "c" }] });
      await send(c.body(SYSTEM, [turn(1)], { prompt_cache_key: "session-a" }));
      expect(c.cached(await send(c.body(SYSTEM, [turn(1), turn(2)], { prompt_cache_key: "session-b" })))).toBe(0);
      expect(c.cached(await send(c.body(SYSTEM, [turn(1), turn(2)], { prompt_cache_key: "session-a" })))).toBeGreaterThanOrEqual(MIN_CACHED_TOKENS);
    });

    test("scripted usage wins over the emulation", async () => {
      server = await startFakeServer({ replies: [{ text: "a" }, { text: "b", usage: { input: 5000, output: 3, cached: 4096 } }] });
      await send(c.body(SYSTEM, [turn(1)]));
      const res = await send(c.body(SYSTEM, [turn(1), turn(2)]));
      expect([c.input(res), c.cached(res)]).toEqual([5000, 4096]);
    });
  });
}
