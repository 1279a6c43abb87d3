import { describe, expect, test } from "bun:test";
import { askServer, probePlan, readModelList, readOllamaPs, readOllamaShow, type ServerKind } from "../../lib/provider/model-metadata.ts";
import type { VendorMode } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

describe("probePlan: ask only what the server can answer", () => {
  test("a preset names the kind, wherever its base URL points", () => {
    expect(probePlan({ provider: "ollama", baseURL: "http://gpu-box:11434/v1" })).toEqual({ type: "kind", kind: "ollama" });
    expect(probePlan({ provider: "llamacpp", baseURL: "http://localhost:8080/v1" })).toEqual({ type: "kind", kind: "llamacpp" });
    expect(probePlan({ provider: "openrouter", baseURL: "https://openrouter.ai/api/v1" })).toEqual({ type: "kind", kind: "openrouter" });
  });

  test("OpenAI's own API is never asked (its list says nothing about windows)", () => {
    expect(probePlan({ provider: "openai", baseURL: "https://api.openai.com/v1" })).toEqual({ type: "none" });
    expect(probePlan({ provider: "openai", baseURL: "https://me.openai.azure.com/openai/v1" })).toEqual({ type: "none" });
  });

  test("a server on this machine of unknown kind is detected; any other host gets /models only", () => {
    expect(probePlan({ provider: "openai", baseURL: "http://127.0.0.1:9000/v1" })).toEqual({ type: "detect" });
    expect(probePlan({ provider: "groq", baseURL: "https://api.groq.com/openai/v1" })).toEqual({ type: "kind", kind: "other" });
    expect(probePlan({ provider: "openai", baseURL: "https://proxy.example.com/v1" })).toEqual({ type: "kind", kind: "other" });
  });
});

describe("askServer against each vendor's metadata endpoint (fake server)", () => {
  const serve = useFakeServer();
  const models = { "qwen2.5-7b": { contextWindow: 8192, maxContext: 32768, maxOutputTokens: 2048 } };
  const cases: [VendorMode & ServerKind, string, { contextWindow: number; maxOutputTokens?: number; images?: boolean }][] = [
    ["vllm", "vLLM /models", { contextWindow: 8192 }],
    // Each but vLLM also says whether the model takes images (LM Studio's type, llama.cpp's modalities,
    // ollama's capabilities, OpenRouter's input_modalities): text only here.
    ["lmstudio", "LM Studio /api/v0/models", { contextWindow: 8192, images: false }],
    ["llamacpp", "llama.cpp /props", { contextWindow: 8192, images: false }],
    ["ollama", "ollama /api/show", { contextWindow: 8192, images: false }],
    ["openrouter", "OpenRouter /models", { contextWindow: 8192, maxOutputTokens: 2048, images: false }],
  ];
  for (const [vendor, endpoint, limits] of cases) {
    test(`${vendor}: the window it runs with (not the model's native maximum), from its own endpoint only`, async () => {
      const s = await serve.with({ vendor, models })();
      const report = await askServer({ type: "kind", kind: vendor }, { baseURL: s.url, model: "qwen2.5-7b", timeoutMs: 2000 });
      expect(report).toEqual({ kind: vendor, limits, endpoint });
      expect(s.requests).toHaveLength(1);
    });

    test(`${vendor}: a server on this machine is detected by trying the candidates in order`, async () => {
      const s = await serve.with({ vendor, models })();
      const report = await askServer({ type: "detect" }, { baseURL: s.url, model: "qwen2.5-7b", timeoutMs: 2000 });
      expect(report?.limits.contextWindow).toBe(8192);
      // openrouter's list answers first, as a list that is not vLLM's
      expect(report?.kind).toBe(vendor === "openrouter" ? "other" : vendor);
      expect(s.requests.length).toBeLessThanOrEqual(4);
    });
  }

  test("an unknown model, a plain OpenAI list, a server that is down: quiet, undefined", async () => {
    const s = await serve.with({ vendor: "ollama", models })();
    expect(await askServer({ type: "kind", kind: "ollama" }, { baseURL: s.url, model: "nope", timeoutMs: 2000 })).toBeUndefined();
    const plain = await serve.with({ vendor: "openai", models })();
    expect(await askServer({ type: "detect" }, { baseURL: plain.url, model: "qwen2.5-7b", timeoutMs: 2000 })).toBeUndefined();
    expect(await askServer({ type: "kind", kind: "vllm" }, { baseURL: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 500 })).toBeUndefined();
  });

  test("a server that does not answer in time is a server that does not know; the time limit covers a whole detection", async () => {
    const hung = Bun.serve({ port: 0, fetch: () => new Promise<Response>(() => {}) });
    try {
      const started = Date.now();
      expect(await askServer({ type: "detect" }, { baseURL: `http://127.0.0.1:${hung.port}/v1`, model: "m", timeoutMs: 300 })).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      hung.stop(true);
    }
  });
});

describe("the readers take only what they can trust", () => {
  test("model lists: each vendor's field; a window of nonsense is no window", () => {
    expect(readModelList({ data: [{ id: "m", context_window: 131072, max_completion_tokens: 32768 }] }, "m")).toEqual({ contextWindow: 131072, maxOutputTokens: 32768, field: "context_window" });
    expect(readModelList({ data: [{ id: "m", max_context_length: 32768 }] }, "m")).toEqual({ contextWindow: 32768, field: "max_context_length" });
    expect(readModelList({ data: [{ id: "m", context_length: "lots" }] }, "m")).toBeUndefined();
    expect(readModelList({ data: [{ id: "m", max_model_len: -1 }] }, "m")).toBeUndefined();
    expect(readModelList({ data: [{ id: "other", max_model_len: 8192 }] }, "m")).toBeUndefined();
    expect(readModelList("not json", "m")).toBeUndefined();
  });

  test("ollama: num_ctx from the parameters; the native maximum alone is no answer; /api/ps for a loaded model", () => {
    expect(readOllamaShow({ parameters: 'num_ctx                        4096\nstop "<|im_end|>"' })).toEqual({ contextWindow: 4096 });
    expect(readOllamaShow({ parameters: 'stop "<|im_end|>"', model_info: { "qwen2.context_length": 32768 } })).toBeUndefined();
    expect(readOllamaPs({ models: [{ name: "qwen2.5:latest", context_length: 32768 }] }, "qwen2.5")).toEqual({ contextWindow: 32768 });
  });
});
