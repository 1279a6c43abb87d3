import { describe, expect, test } from "bun:test";
import { builtInLimits, configuredLimits } from "../../lib/config/model-limits.ts";

describe("configuredLimits: SHIRO_CONTEXT_WINDOW > presets.<provider>.models > models, field by field", () => {
  const config = {
    models: { qwen: { contextWindow: 32_768, maxOutputTokens: 4096 } },
    presets: { ollama: { models: { qwen: { contextWindow: 8192 } } } },
  };
  test("the preset's entry wins for its own provider only; the other field still comes from models", () => {
    expect(configuredLimits({ provider: "ollama", model: "qwen", contextWindow: undefined }, config)).toEqual({
      contextWindow: 8192,
      maxOutputTokens: 4096,
      from: { contextWindow: "config presets.ollama.models", maxOutputTokens: "config models" },
    });
    expect(configuredLimits({ provider: "vllm", model: "qwen", contextWindow: undefined }, config).contextWindow).toBe(32_768);
  });
  test("the environment wins for the window; an unknown id has nothing", () => {
    expect(configuredLimits({ provider: "ollama", model: "qwen", contextWindow: 16_000 }, config)).toMatchObject({ contextWindow: 16_000, from: { contextWindow: "SHIRO_CONTEXT_WINDOW" } });
    expect(configuredLimits({ provider: "ollama", model: "Qwen", contextWindow: undefined }, config)).toEqual({ from: {} });
  });
});

describe("builtInLimits: OpenAI's families and the presets' default models", () => {
  test("real windows and output limits", () => {
    expect(builtInLimits("gpt-5")).toEqual({ contextWindow: 400_000, maxOutputTokens: 128_000 });
    expect(builtInLimits("gpt-5-mini")).toEqual({ contextWindow: 400_000, maxOutputTokens: 128_000 });
    expect(builtInLimits("gpt-5-chat-latest")).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(builtInLimits("gpt-4.1-mini")).toEqual({ contextWindow: 1_047_576, maxOutputTokens: 32_768 });
    expect(builtInLimits("gpt-4o-2024-08-06")).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(builtInLimits("openai/gpt-4o-mini")).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(builtInLimits("gpt-4")).toEqual({ contextWindow: 8_192, maxOutputTokens: 8_192 });
    expect(builtInLimits("gpt-3.5-turbo")).toEqual({ contextWindow: 16_385, maxOutputTokens: 4_096 });
    expect(builtInLimits("o3-mini")).toEqual({ contextWindow: 200_000, maxOutputTokens: 100_000 });
    expect(builtInLimits("o1-mini")).toEqual({ contextWindow: 128_000, maxOutputTokens: 65_536 });
    expect(builtInLimits("deepseek-chat")).toEqual({ contextWindow: 128_000, maxOutputTokens: 8_192 });
  });
  test("a model nobody published is unknown", () => {
    expect(builtInLimits("qwen2.5-coder:7b")).toBeUndefined();
    expect(builtInLimits("gpt-test")).toBeUndefined();
  });
});
