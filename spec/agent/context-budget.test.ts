import { describe, expect, test } from "bun:test";
import { overflowFailure, overflowNotice, promptTooLarge, requestBudget, smallWindowNotice, windowLabel } from "../../lib/agent/context-budget.ts";
import type { ContextWindowInfo } from "../../lib/provider/context-window.ts";
import { estimateTextTokens, estimateToolTokens } from "../../lib/prune/tokens.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";

const tools = toolsFor({ notebook: createNotebook() });
const instructions = "You are shiro. ".repeat(100);
const overhead = estimateTextTokens(instructions) + estimateToolTokens(tools);
const window = (info: Partial<ContextWindowInfo>): ContextWindowInfo => ({ tokens: 128_000, source: "default", from: "default", scale: 1, ...info });

describe("requestBudget: the conversation gets what the window leaves", () => {
  test("the tool definitions are counted: over 1.5k estimated tokens for the default set", () => {
    expect(estimateToolTokens(tools)).toBeGreaterThan(1500);
    expect(estimateToolTokens([])).toBe(0);
  });

  test("a large window: the configured threshold decides", () => {
    const budget = requestBudget(window({ tokens: 400_000, maxOutputTokens: 128_000 }), { pruneAtTokens: 120_000, instructions, tools });
    expect(budget).toMatchObject({ conversationTokens: 120_000, answerTokens: 100_000, overheadTokens: overhead, tooSmall: false });
  });

  test("a 128k window with a 16k answer: less than the default 120k", () => {
    const budget = requestBudget(window({ tokens: 128_000, maxOutputTokens: 16_384 }), { pruneAtTokens: 120_000, instructions, tools });
    expect(budget.conversationTokens).toBe(128_000 - 16_384 - overhead);
  });

  test("an 8k window: a quarter for the answer, then instructions and tools, the rest for the conversation", () => {
    const budget = requestBudget(window({ tokens: 8192 }), { pruneAtTokens: 120_000, instructions, tools });
    expect(budget).toMatchObject({ answerTokens: 2048, conversationTokens: 8192 - 2048 - overhead, tooSmall: false });
  });

  test("a 4k window is too small to work in", () => {
    const budget = requestBudget(window({ tokens: 4096 }), { pruneAtTokens: 120_000, instructions, tools });
    expect(budget.tooSmall).toBe(true);
    expect(budget.conversationTokens).toBeGreaterThanOrEqual(0);
  });

  test("a learned scale and cap shrink it; a sent output limit is what is reserved", () => {
    expect(requestBudget(window({ tokens: 20_000, scale: 2 }), { pruneAtTokens: 120_000, instructions, tools }).conversationTokens).toBe(Math.floor((20_000 - 5000) / 2) - overhead);
    expect(requestBudget(window({ tokens: 20_000, conversationCap: 1234 }), { pruneAtTokens: 120_000, instructions, tools }).conversationTokens).toBe(1234);
    expect(requestBudget(window({ tokens: 20_000, requestOutputTokens: 1000 }), { pruneAtTokens: 120_000, instructions, tools })).toMatchObject({ answerTokens: 1000, outputTokens: 1000 });
  });
});

describe("what the user reads", () => {
  test("the overflow notices", () => {
    expect(overflowNotice({ stated: 4097, smaller: true })).toBe("the model's context is 4,097 tokens, smaller than shiro assumed; pruned the request to fit and carried on");
    expect(overflowNotice({ smaller: true })).toBe("the model's context is smaller than shiro assumed (the server did not say how small); pruned the request harder and carried on");
  });

  test("the small-window warning names the server's own fix", () => {
    const info = window({ tokens: 4096, source: "server", from: "ollama /api/show", kind: "ollama" });
    const text = smallWindowNotice("qwen2.5", info, requestBudget(info, { pruneAtTokens: 120_000, instructions, tools }));
    expect(text).toStartWith("qwen2.5 has a context of 4,096 tokens (ollama /api/show), too small to work in");
    expect(text).toContain("OLLAMA_CONTEXT_LENGTH=32768");
    expect(smallWindowNotice("q", window({ tokens: 4096, kind: "llamacpp" }), requestBudget(window({ tokens: 4096 }), { pruneAtTokens: 1000, instructions, tools }))).toContain("-c 32768");
    expect(smallWindowNotice("q", window({ tokens: 4096, kind: "vllm" }), requestBudget(window({ tokens: 4096 }), { pruneAtTokens: 1000, instructions, tools }))).toContain("--max-model-len");
  });

  test("the unfixable error says what to do", () => {
    const text = overflowFailure("m", window({ tokens: 8192, source: "learned", kind: "vllm" }), false);
    expect(text).toContain("does not fit the model's context of 8,192 tokens");
    for (const way of ["/compact", "--max-model-len", "fewer tools"]) expect(text).toContain(way);
  });

  test("the window label", () => {
    expect(windowLabel(window({ tokens: 8192, from: "vLLM /models" }))).toBe("window 8,192 tokens (vLLM /models)");
  });
});

test("a message too large for the window on its own is told to be shorter, with both sizes", () => {
  const text = promptTooLarge(40_123, window({ tokens: 8192, source: "learned", kind: "vllm" }));
  expect(text).toContain("the message is about 40,123 tokens (estimated), more than the model's context of 8,192 tokens can take: send less of it");
  expect(text).not.toContain("/compact");
});
