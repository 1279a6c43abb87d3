import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { resolveContextWindow, type ResolveWindowOptions } from "../../lib/provider/context-window.ts";
import { REFUSED_TTL_MS, REPORTED_TTL_MS, windowCachePath } from "../../lib/provider/window-cache.ts";
import { tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();
const MODEL = "qwen2.5-7b";

/** Settings for a server on this machine with no preset: the case that detects and caches. */
function options(baseURL: string, extra: Partial<ResolveWindowOptions> = {}): ResolveWindowOptions & { asked: string[] } {
  const asked: string[] = [];
  const counting = ((input: string | URL | Request, init?: RequestInit) => {
    asked.push(new URL(String(input)).pathname);
    return fetch(input, init);
  }) as typeof fetch;
  return { settings: { provider: "openai", model: MODEL, baseURL, apiKey: undefined, contextWindow: undefined }, config: {}, home: tempDir(), fetch: counting, asked, ...extra };
}

describe("where the window comes from, first found wins", () => {
  test("SHIRO_CONTEXT_WINDOW, then the preset's config entry, then the config's models: nothing is asked", async () => {
    const s = await serve.with({ vendor: "vllm", models: { [MODEL]: { contextWindow: 8192 } } })();
    const config = { models: { [MODEL]: { contextWindow: 16_000, maxOutputTokens: 1000 } }, presets: { vllm: { models: { [MODEL]: { contextWindow: 12_000 } } } } };
    const fromEnv = options(s.url, { config, settings: { provider: "vllm", model: MODEL, baseURL: s.url, apiKey: undefined, contextWindow: 20_000 } });
    expect((await resolveContextWindow(fromEnv)).info).toMatchObject({ tokens: 20_000, source: "env", from: "SHIRO_CONTEXT_WINDOW", maxOutputTokens: 1000, requestOutputTokens: 1000 });
    const fromPreset = options(s.url, { config, settings: { provider: "vllm", model: MODEL, baseURL: s.url, apiKey: undefined, contextWindow: undefined } });
    expect((await resolveContextWindow(fromPreset)).info).toMatchObject({ tokens: 12_000, source: "config", from: "config presets.vllm.models" });
    const fromModels = options(s.url, { config });
    expect((await resolveContextWindow(fromModels)).info).toMatchObject({ tokens: 16_000, source: "config", from: "config models" });
    expect([...fromEnv.asked, ...fromPreset.asked, ...fromModels.asked]).toEqual([]);
    expect(s.requests).toHaveLength(0);
  });

  test("then the server, asked once and cached: the next session asks nothing", async () => {
    const s = await serve.with({ vendor: "vllm", models: { [MODEL]: { contextWindow: 32_768 } } })();
    const first = options(s.url);
    expect((await resolveContextWindow(first)).info).toMatchObject({ tokens: 32_768, source: "server", from: "vLLM /models", kind: "vllm" });
    expect(first.asked).toEqual(["/v1/models"]);
    const second = options(s.url, { home: first.home });
    expect((await resolveContextWindow(second)).info).toMatchObject({ tokens: 32_768, source: "server", from: "vLLM /models, cached", kind: "vllm" });
    expect(second.asked).toEqual([]);
  });

  test("a cached answer expires; a detected kind is asked alone next time", async () => {
    const s = await serve.with({ vendor: "ollama", models: { [MODEL]: { contextWindow: 32_768 } } })();
    let clock = 1_000_000;
    const first = options(s.url, { now: () => clock });
    await resolveContextWindow(first);
    expect(first.asked).toEqual(["/v1/models", "/props", "/api/show"]);
    clock += REPORTED_TTL_MS - 1000;
    const fresh = options(s.url, { home: first.home, now: () => clock });
    await resolveContextWindow(fresh);
    expect(fresh.asked).toEqual([]);
    clock += 2000;
    const stale = options(s.url, { home: first.home, now: () => clock });
    expect((await resolveContextWindow(stale)).info.from).toBe("ollama /api/show");
    expect(stale.asked).toEqual(["/api/show"]); // only ollama's: the kind is remembered
  });

  test("a small cached window is asked again: it is what the user is likely fixing", async () => {
    const small = await serve.with({ vendor: "llamacpp", models: { [MODEL]: { contextWindow: 4096 } } })();
    const first = options(small.url);
    expect((await resolveContextWindow(first)).info.tokens).toBe(4096);
    const again = options(small.url, { home: first.home });
    await resolveContextWindow(again);
    expect(again.asked).toEqual(["/props"]);
  });

  test("then the built-in table, then the default; a server with nothing to say is not asked again", async () => {
    const s = await serve.with({ vendor: "openai", models: { "gpt-4o": { contextWindow: 128_000 }, mystery: { contextWindow: 8192 } } })();
    const table = options(s.url, { settings: { provider: "openai", model: "gpt-4o-2024-08-06", baseURL: s.url, apiKey: undefined, contextWindow: undefined } });
    expect((await resolveContextWindow(table)).info).toMatchObject({ tokens: 128_000, source: "built-in", from: "built-in table", maxOutputTokens: 16_384 });
    const unknown = options(s.url, { settings: { provider: "openai", model: "mystery", baseURL: s.url, apiKey: undefined, contextWindow: undefined } });
    expect((await resolveContextWindow(unknown)).info).toMatchObject({ tokens: 128_000, source: "default", from: "default" });
    const again = options(s.url, { home: unknown.home, settings: unknown.settings });
    await resolveContextWindow(again);
    expect(again.asked).toEqual([]);
  });

  test("OpenAI's API is never asked; the table knows its models", async () => {
    let asked = 0;
    const fetchSpy = (() => {
      asked++;
      throw new Error("no network");
    }) as unknown as typeof fetch;
    const window = await resolveContextWindow({ settings: { provider: "openai", model: "gpt-5-mini", baseURL: "https://api.openai.com/v1", apiKey: "sk", contextWindow: undefined }, config: {}, home: tempDir(), fetch: fetchSpy });
    expect(window.info).toMatchObject({ tokens: 400_000, maxOutputTokens: 128_000, source: "built-in", kind: "openai" });
    expect(asked).toBe(0);
  });
});

describe("a refusal teaches the window", () => {
  test("a stated window replaces a larger one, is remembered for this model and server, and caps later sessions", async () => {
    const s = await serve.with({ vendor: "openai" })();
    const opts = options(s.url);
    const window = await resolveContextWindow(opts);
    expect(window.info.tokens).toBe(128_000);
    expect(window.learn({ limit: 8192, inputTokens: 9000 }, { requestTokens: 9000, conversationTokens: 6000 })).toEqual({ stated: 8192, smaller: true });
    expect(window.info).toMatchObject({ tokens: 8192, source: "learned", scale: 1 });
    const next = await resolveContextWindow(options(s.url, { home: opts.home }));
    expect(next.info).toMatchObject({ tokens: 8192, source: "learned", from: "stated by the server when it refused a request" });
    // Another model on the same server is not affected.
    const other = await resolveContextWindow(options(s.url, { home: opts.home, settings: { ...opts.settings, model: "another" } }));
    expect(other.info.tokens).toBe(128_000);
  });

  test("the server's count of the input calibrates the estimate; a refusal at the window already assumed raises it too", async () => {
    const s = await serve.with({ vendor: "openai" })();
    const window = await resolveContextWindow(options(s.url, { config: { models: { [MODEL]: { contextWindow: 8192 } } } }));
    expect(window.learn({ limit: 8192, inputTokens: 12_000 }, { requestTokens: 8000, conversationTokens: 5000 })).toEqual({ stated: 8192, smaller: false });
    expect(window.info.scale).toBe(1.5);
    window.learn({ limit: 8192 }, { requestTokens: 5000, conversationTokens: 2000 });
    expect(window.info.scale).toBe(1.875);
  });

  test("a refusal that names no window halves the conversation allowed, for this process only", async () => {
    const s = await serve.with({ vendor: "openai" })();
    const opts = options(s.url);
    const window = await resolveContextWindow(opts);
    expect(window.learn({}, { requestTokens: 10_000, conversationTokens: 7000 })).toEqual({ smaller: true });
    expect(window.info.conversationCap).toBe(3500);
    expect((await resolveContextWindow(options(s.url, { home: opts.home }))).info.conversationCap).toBeUndefined();
  });

  test("a learned window is kept for a week", async () => {
    const s = await serve.with({ vendor: "openai" })();
    let clock = 5_000_000;
    const opts = options(s.url, { now: () => clock });
    (await resolveContextWindow(opts)).learn({ limit: 8192 }, { requestTokens: 9000, conversationTokens: 6000 });
    clock += REFUSED_TTL_MS - 1000;
    expect((await resolveContextWindow(options(s.url, { home: opts.home, now: () => clock }))).info.tokens).toBe(8192);
    clock += 2000;
    expect((await resolveContextWindow(options(s.url, { home: opts.home, now: () => clock }))).info.tokens).toBe(128_000);
  });

  test("a configured output limit is fitted into the window, also after it shrinks", async () => {
    const s = await serve.with({ vendor: "openai" })();
    const window = await resolveContextWindow(options(s.url, { config: { models: { [MODEL]: { contextWindow: 8192, maxOutputTokens: 6000 } } } }));
    expect(window.info.requestOutputTokens).toBe(4096);
    window.learn({ limit: 4096 }, { requestTokens: 5000, conversationTokens: 1000 });
    expect(window.info.requestOutputTokens).toBe(2048);
  });
});

describe("the cache file", () => {
  test("is written atomically as JSON under $SHIRO_HOME/cache, and a damaged one is ignored, then replaced", async () => {
    const s = await serve.with({ vendor: "vllm", models: { [MODEL]: { contextWindow: 32_768 } } })();
    const opts = options(s.url);
    const path = windowCachePath(opts.home);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{ not json");
    expect((await resolveContextWindow(opts)).info.tokens).toBe(32_768);
    expect(opts.asked).toEqual(["/v1/models"]);
    const saved = JSON.parse(readFileSync(path, "utf8"));
    expect(saved[s.url].models[MODEL].reported).toMatchObject({ contextWindow: 32_768, endpoint: "vLLM /models" });
    expect(existsSync(`${path}.corrupt`)).toBe(false);
  });

  test("entries that do not validate are dropped one by one; the rest are used", async () => {
    const s = await serve.with({ vendor: "vllm", models: { [MODEL]: { contextWindow: 32_768 }, other: { contextWindow: 9000 } } })();
    const opts = options(s.url);
    const path = windowCachePath(opts.home);
    mkdirSync(dirname(path), { recursive: true });
    const now = Date.now();
    writeFileSync(path, JSON.stringify({ [s.url]: { kind: { kind: "vllm", savedAt: now }, models: { [MODEL]: { reported: { contextWindow: "huge", savedAt: now } }, other: { refused: { contextWindow: 4000, savedAt: now } } } } }));
    expect((await resolveContextWindow(opts)).info.tokens).toBe(32_768);
    expect(opts.asked).toEqual(["/v1/models"]);
    const other = await resolveContextWindow(options(s.url, { home: opts.home, settings: { ...opts.settings, model: "other" } }));
    expect(other.info).toMatchObject({ tokens: 4000, source: "learned" });
  });
});
