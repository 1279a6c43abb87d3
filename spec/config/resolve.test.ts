import { describe, expect, test } from "bun:test";
import { resolveSettings, traceSettings } from "../../lib/config/resolve.ts";
import { ShiroError } from "../../lib/errors.ts";

describe("resolveSettings precedence: flag > env > config > preset > default", () => {
  const key = { OPENAI_API_KEY: "sk-test" };

  test("defaults: OpenAI Responses API with the default model", () => {
    const s = resolveSettings({}, key, {});
    expect(s).toMatchObject({ provider: "openai", baseURL: "https://api.openai.com/v1", api: "responses", maxSteps: 50, pruneAtTokens: 120_000 });
    expect(s.model.length).toBeGreaterThan(0);
  });

  test("approval mode: --mode beats config approvalMode beats ask; anything else is a usage error; bell is on unless config says false", () => {
    expect(resolveSettings({}, key, {}).approvalMode).toBe("ask");
    expect(resolveSettings({}, key, { approvalMode: "auto" }).approvalMode).toBe("auto");
    expect(resolveSettings({ approvalMode: "edits" }, key, { approvalMode: "auto" }).approvalMode).toBe("edits");
    expect(() => resolveSettings({ approvalMode: "always" }, key, {})).toThrow('--mode must be one of ask, edits, auto, not "always"');
    expect(resolveSettings({}, key, {}).bell).toBe(true);
    expect(resolveSettings({}, key, { bell: false }).bell).toBe(false);
  });

  test("sandbox: --no-sandbox beats SHIRO_SANDBOX beats config beats on; SHIRO_SANDBOX takes on or off only", () => {
    expect(resolveSettings({}, key, {}).sandbox.mode).toBe("on");
    expect(resolveSettings({}, { ...key, SHIRO_SANDBOX: "off" }, {}).sandbox.mode).toBe("off");
    expect(resolveSettings({}, { ...key, SHIRO_SANDBOX: "on" }, { sandbox: "off" }).sandbox.mode).toBe("on");
    expect(resolveSettings({ sandbox: false }, { ...key, SHIRO_SANDBOX: "on" }, {}).sandbox.mode).toBe("off");
    expect(resolveSettings({}, { ...key, SHIRO_SANDBOX: "" }, { sandbox: "off" }).sandbox.mode).toBe("off");
    expect(traceSettings({}, { ...key, SHIRO_SANDBOX: "off" }, {}, { forRun: true }).sources.sandbox).toEqual({ kind: "env", name: "SHIRO_SANDBOX" });
    expect(() => resolveSettings({}, { ...key, SHIRO_SANDBOX: "no" }, {})).toThrow('SHIRO_SANDBOX must be "on" or "off", not "no".');
  });

  test("model: flag beats env beats config", () => {
    expect(resolveSettings({ model: "f" }, { ...key, SHIRO_MODEL: "e" }, { model: "c" }).model).toBe("f");
    expect(resolveSettings({}, { ...key, SHIRO_MODEL: "e" }, { model: "c" }).model).toBe("e");
    expect(resolveSettings({}, key, { model: "c" }).model).toBe("c");
  });

  test("base URL: flag, SHIRO_BASE_URL, OPENAI_BASE_URL, config, in that order", () => {
    const shiroKey = { SHIRO_API_KEY: "sk-test" };
    const env = { ...shiroKey, SHIRO_BASE_URL: "http://s/v1", OPENAI_BASE_URL: "http://o/v1" };
    expect(resolveSettings({ baseURL: "http://f/v1" }, env, { baseURL: "http://c/v1" }).baseURL).toBe("http://f/v1");
    expect(resolveSettings({}, env, { baseURL: "http://c/v1" }).baseURL).toBe("http://s/v1");
    expect(resolveSettings({}, { ...shiroKey, OPENAI_BASE_URL: "http://o/v1" }, { baseURL: "http://c/v1" }).baseURL).toBe("http://o/v1");
    expect(resolveSettings({}, shiroKey, { baseURL: "http://c/v1/" }).baseURL).toBe("http://c/v1");
  });

  test("OPENAI_API_KEY goes to OpenAI (and Azure, or a server set to the OpenAI client), or with OPENAI_BASE_URL; never to another server named with --base-url", () => {
    const openai = { OPENAI_API_KEY: "sk-openai-secret" };
    expect(resolveSettings({}, openai, {}).apiKey).toBe("sk-openai-secret");
    expect(resolveSettings({ baseURL: "https://myco.openai.azure.com/openai/v1" }, openai, {}).apiKey).toBe("sk-openai-secret");
    expect(resolveSettings({ baseURL: "https://proxy.example/v1" }, openai, { client: "openai" }).apiKey).toBe("sk-openai-secret");
    expect(resolveSettings({}, { ...openai, OPENAI_BASE_URL: "https://proxy.example/v1" }, {}).apiKey).toBe("sk-openai-secret");
    // Another vendor's server: the OpenAI key stays home, and the line says what to set.
    expect(() => resolveSettings({ baseURL: "https://api.together.example/v1" }, openai, {})).toThrow(/^no API key for https:\/\/api\.together\.example\/v1: set SHIRO_API_KEY, or/);
    expect(() => resolveSettings({}, { ...openai, SHIRO_BASE_URL: "https://api.together.example/v1" }, {})).toThrow(/set SHIRO_API_KEY, or/);
    expect(resolveSettings({ baseURL: "https://api.together.example/v1" }, { ...openai, SHIRO_API_KEY: "tk" }, {}).apiKey).toBe("tk");
    expect(resolveSettings({ baseURL: "http://localhost:8080/v1" }, openai, {}).apiKey).toBeUndefined();
  });

  test("key: SHIRO_API_KEY beats OPENAI_API_KEY beats config apiKey", () => {
    expect(resolveSettings({}, { SHIRO_API_KEY: "a", OPENAI_API_KEY: "b" }, { apiKey: "c" }).apiKey).toBe("a");
    expect(resolveSettings({}, { OPENAI_API_KEY: "b" }, { apiKey: "c" }).apiKey).toBe("b");
    expect(resolveSettings({}, {}, { apiKey: "c" }).apiKey).toBe("c");
  });

  test("a local base URL needs no key", () => {
    for (const url of ["http://localhost:11434/v1", "http://127.0.0.1:8080/v1", "http://127.1.2.3/v1"]) {
      expect(resolveSettings({ baseURL: url }, {}, {}).apiKey).toBeUndefined();
    }
  });

  test("a remote base URL without a key is a config error naming what to set", () => {
    try {
      resolveSettings({}, {}, {});
      throw new Error("expected a ShiroError");
    } catch (error) {
      expect(error).toBeInstanceOf(ShiroError);
      expect((error as ShiroError).code).toBe("config");
      expect((error as ShiroError).message).toContain("OPENAI_API_KEY");
      expect((error as ShiroError).message).toContain('"apiKey"');
    }
  });

  test("presets fill base URL, key variable and wire; an OpenAI key is never sent to another vendor", () => {
    const groq = resolveSettings({ provider: "groq", model: "llama-3.3-70b" }, { GROQ_API_KEY: "gk" }, {});
    expect(groq).toMatchObject({ baseURL: "https://api.groq.com/openai/v1", apiKey: "gk", api: "chat" });
    expect(() => resolveSettings({}, { OPENAI_API_KEY: "sk" }, { provider: "openrouter", model: "x" })).toThrow(/OPENROUTER_API_KEY/);
    const ollama = resolveSettings({}, {}, { provider: "ollama", model: "qwen3" });
    expect(ollama).toMatchObject({ baseURL: "http://localhost:11434/v1", apiKey: undefined, api: "chat" });
    expect(resolveSettings({ api: "responses" }, {}, { provider: "ollama", model: "qwen3" }).api).toBe("responses");
  });

  test("a provider with no model of its own must be given one for a run; one that has a default uses it", () => {
    for (const provider of ["groq", "ollama", "openrouter", "vllm"] as const) {
      expect(() => resolveSettings({ provider }, { SHIRO_API_KEY: "k" }, {})).toThrow(`${provider} has no default model: choose one with --model <id>`);
      expect(resolveSettings({ provider, model: "m" }, { SHIRO_API_KEY: "k" }, {}).model).toBe("m");
      expect(resolveSettings({ provider }, { SHIRO_API_KEY: "k", SHIRO_MODEL: "e" }, {}).model).toBe("e");
      expect(resolveSettings({}, { SHIRO_API_KEY: "k" }, { provider, model: "c" }).model).toBe("c");
      // shiro config and shiro doctor still resolve, to report it.
      expect(traceSettings({ provider }, {}, {}, { forRun: false }).sources.model).toEqual({ kind: "default" });
    }
    expect(resolveSettings({ provider: "deepseek" }, { SHIRO_API_KEY: "k" }, {}).model).toBe("deepseek-chat");
    expect(resolveSettings({}, { SHIRO_API_KEY: "k" }, {}).model).toBe("gpt-5-mini");
  });

  test("bad values are usage errors", () => {
    expect(() => resolveSettings({ api: "soap" }, key, {})).toThrow(/--api/);
    expect(() => resolveSettings({ provider: "acme" }, key, {})).toThrow(/unknown provider/);
    expect(() => resolveSettings({}, { ...key, SHIRO_COMPACT_AT: "lots" }, {})).toThrow(/SHIRO_COMPACT_AT/);
  });

  test("the test-only SHIRO_RETRY_BASE_MS is a setting like the others: checked, with a default", () => {
    expect(resolveSettings({}, key, {}).retryBaseMs).toBe(1_000);
    expect(resolveSettings({}, { ...key, SHIRO_RETRY_BASE_MS: "20" }, {}).retryBaseMs).toBe(20);
    expect(resolveSettings({}, { ...key, SHIRO_RETRY_BASE_MS: "0" }, {}).retryBaseMs).toBe(0);
    expect(() => resolveSettings({}, { ...key, SHIRO_RETRY_BASE_MS: "soon" }, {})).toThrow(/SHIRO_RETRY_BASE_MS/);
    expect(() => resolveSettings({}, { ...key, SHIRO_RETRY_BASE_MS: "-5" }, {})).toThrow(/SHIRO_RETRY_BASE_MS/);
  });

  test("step cap and spend ceiling: flag beats env or config, and a bad value names where it came from", () => {
    expect(resolveSettings({ maxSteps: 3 }, { ...key, SHIRO_MAX_STEPS: "7" }, { maxSteps: 9 }).maxSteps).toBe(3);
    expect(resolveSettings({}, { ...key, SHIRO_MAX_STEPS: "7" }, { maxSteps: 9 }).maxSteps).toBe(7);
    expect(resolveSettings({}, key, { maxSteps: 9 }).maxSteps).toBe(9);
    expect(() => resolveSettings({}, { ...key, SHIRO_MAX_STEPS: "0" }, {})).toThrow('SHIRO_MAX_STEPS must be a whole number of at least 1, not "0".');
    expect(resolveSettings({ maxSpendUsd: 1.5 }, key, { maxSpendUsd: 9 }).maxSpendUsd).toBe(1.5);
    expect(resolveSettings({}, key, { maxSpendUsd: 9 }).maxSpendUsd).toBe(9);
    expect(resolveSettings({}, key, {}).maxSpendUsd).toBeUndefined();
  });

  test("SHIRO_COMPACT_AT and config compactAtTokens set the threshold (pruneAtTokens)", () => {
    expect(resolveSettings({}, { ...key, SHIRO_COMPACT_AT: "5000" }, { compactAtTokens: 9000 }).pruneAtTokens).toBe(5000);
    expect(resolveSettings({}, key, { compactAtTokens: 9000 }).pruneAtTokens).toBe(9000);
  });

  test("SHIRO_CONTEXT_WINDOW states the window of any model; a wrong value names the variable", () => {
    expect(resolveSettings({}, { ...key, SHIRO_CONTEXT_WINDOW: "8192" }, {}).contextWindow).toBe(8192);
    expect(resolveSettings({}, key, {}).contextWindow).toBeUndefined();
    expect(() => resolveSettings({}, { ...key, SHIRO_CONTEXT_WINDOW: "8k" }, {})).toThrow(/SHIRO_CONTEXT_WINDOW must be a whole number of tokens, at least 1000, not "8k"/);
  });
});

describe("traceSettings: where each value came from, by the same precedence", () => {
  test("each step of the model's precedence is named as the one that gave the value", () => {
    const env = { SHIRO_API_KEY: "k", SHIRO_MODEL: "e" };
    const at = (flags: Parameters<typeof traceSettings>[0], e: Record<string, string>, config: Parameters<typeof traceSettings>[2]) => traceSettings(flags, e, config, { forRun: true });
    expect(at({ model: "f" }, env, { model: "c" }).sources.model).toEqual({ kind: "flag", name: "--model" });
    expect(at({}, env, { model: "c" }).sources.model).toEqual({ kind: "env", name: "SHIRO_MODEL" });
    expect(at({}, { SHIRO_API_KEY: "k" }, { model: "c" }).sources.model).toEqual({ kind: "file", name: "model" });
    expect(at({}, { SHIRO_API_KEY: "k" }, {}).sources.model).toEqual({ kind: "preset", name: "openai" });
    expect(traceSettings({}, { OPENROUTER_API_KEY: "k" }, { provider: "openrouter" }, { forRun: false }).sources.model).toEqual({ kind: "default" });
    expect(at({}, { SHIRO_API_KEY: "k" }, {}).sources.maxSteps).toEqual({ kind: "agent", name: "default" });
    expect(at({}, { SHIRO_API_KEY: "k" }, {}).sources.maxSpendUsd).toEqual({ kind: "unset" });
  });

  test("the key's source is the variable that gave it; resolveSettings gives the same settings", () => {
    const env = { GROQ_API_KEY: "gk", OPENAI_API_KEY: "sk" };
    const traced = traceSettings({ provider: "groq", model: "m" }, env, {}, { forRun: true });
    expect(traced.sources.apiKey).toEqual({ kind: "env", name: "GROQ_API_KEY" });
    expect(traced.settings).toEqual(resolveSettings({ provider: "groq", model: "m" }, env, {}));
  });

  test("without forRun a missing key is left unset instead of refused", () => {
    const traced = traceSettings({}, {}, {}, { forRun: false });
    expect(traced.settings.apiKey).toBeUndefined();
    expect(traced.sources.apiKey).toEqual({ kind: "unset" });
    expect(() => traceSettings({}, {}, {}, { forRun: true })).toThrow(/no API key/);
  });
});
