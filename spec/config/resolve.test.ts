import { describe, expect, test } from "bun:test";
import { resolveSettings } from "../../lib/config/resolve.ts";
import { ShiroError } from "../../lib/errors.ts";

describe("resolveSettings precedence: flag > env > config > preset > default", () => {
  const key = { OPENAI_API_KEY: "sk-test" };

  test("defaults: OpenAI Responses API with the default model", () => {
    const s = resolveSettings({}, key, {});
    expect(s).toMatchObject({ provider: "openai", baseURL: "https://api.openai.com/v1", api: "responses", maxSteps: 50, compactAtTokens: 120_000 });
    expect(s.model.length).toBeGreaterThan(0);
  });

  test("model: flag beats env beats config", () => {
    expect(resolveSettings({ model: "f" }, { ...key, SHIRO_MODEL: "e" }, { model: "c" }).model).toBe("f");
    expect(resolveSettings({}, { ...key, SHIRO_MODEL: "e" }, { model: "c" }).model).toBe("e");
    expect(resolveSettings({}, key, { model: "c" }).model).toBe("c");
  });

  test("base URL: flag, SHIRO_BASE_URL, OPENAI_BASE_URL, config, in that order", () => {
    const env = { ...key, SHIRO_BASE_URL: "http://s/v1", OPENAI_BASE_URL: "http://o/v1" };
    expect(resolveSettings({ baseURL: "http://f/v1" }, env, { baseURL: "http://c/v1" }).baseURL).toBe("http://f/v1");
    expect(resolveSettings({}, env, { baseURL: "http://c/v1" }).baseURL).toBe("http://s/v1");
    expect(resolveSettings({}, { ...key, OPENAI_BASE_URL: "http://o/v1" }, { baseURL: "http://c/v1" }).baseURL).toBe("http://o/v1");
    expect(resolveSettings({}, key, { baseURL: "http://c/v1/" }).baseURL).toBe("http://c/v1");
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
    const groq = resolveSettings({ provider: "groq" }, { GROQ_API_KEY: "gk" }, {});
    expect(groq).toMatchObject({ baseURL: "https://api.groq.com/openai/v1", apiKey: "gk", api: "chat" });
    expect(() => resolveSettings({}, { OPENAI_API_KEY: "sk" }, { provider: "openrouter" })).toThrow(/OPENROUTER_API_KEY/);
    const ollama = resolveSettings({}, {}, { provider: "ollama" });
    expect(ollama).toMatchObject({ baseURL: "http://localhost:11434/v1", apiKey: undefined, api: "chat" });
    expect(resolveSettings({ api: "responses" }, {}, { provider: "ollama" }).api).toBe("responses");
  });

  test("bad values are usage errors", () => {
    expect(() => resolveSettings({ api: "soap" }, key, {})).toThrow(/--api/);
    expect(() => resolveSettings({ provider: "acme" }, key, {})).toThrow(/unknown provider/);
    expect(() => resolveSettings({}, { ...key, SHIRO_COMPACT_AT: "lots" }, {})).toThrow(/SHIRO_COMPACT_AT/);
  });

  test("SHIRO_COMPACT_AT and config compactAtTokens set the threshold", () => {
    expect(resolveSettings({}, { ...key, SHIRO_COMPACT_AT: "5000" }, { compactAtTokens: 9000 }).compactAtTokens).toBe(5000);
    expect(resolveSettings({}, key, { compactAtTokens: 9000 }).compactAtTokens).toBe(9000);
  });
});
