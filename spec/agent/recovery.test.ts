// The turn's recovery policies (lib/agent/recovery.ts): what a turn does about a step that failed
// before it showed anything. End-to-end specs (spec/e2e/errors.test.ts, context-window.test.ts)
// drive the same policies through the binary; these pin the decision itself.
import { describe, expect, test } from "bun:test";
import { APICallError } from "ai";
import { recover, REASONING_DROPPED_NOTICE, withServerWords, type RecoveryInput } from "../../lib/agent/recovery.ts";
import { MISSING_ITEM_NOTICE } from "../../lib/provider/missing-item.ts";
import type { ContextOverflow } from "../../lib/provider/context-overflow.ts";
import type { ContextWindow, ContextWindowInfo } from "../../lib/provider/context-window.ts";

const apiError = (statusCode: number, responseBody: string, isRetryable = false) =>
  new APICallError({ message: `provider said ${statusCode}`, url: "http://x/v1/responses", requestBodyValues: {}, statusCode, responseBody, isRetryable });
const body = (message: string, code?: string) => JSON.stringify({ error: { message, ...(code ? { code } : {}) } });

const missingItem = apiError(404, body("Item with id 'rs_123' not found. Items are not persisted when `store` is set to false."));
const overflow = apiError(400, body("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", "context_length_exceeded"));
const rateLimited = apiError(429, body("Rate limit reached, slow down"), true);
const reasoningRefused = apiError(400, body("Unsupported parameter: 'reasoning_effort' is not supported with this model."));
const badKey = apiError(401, body("Incorrect API key provided"));

/** A window that records what it was taught. */
function windowOf(tokens = 128_000) {
  const learned: { overflow: ContextOverflow; sent: { requestTokens: number; conversationTokens: number } }[] = [];
  let info: ContextWindowInfo = { tokens, source: "default", from: "default", scale: 1 };
  const window: ContextWindow = {
    get info() {
      return info;
    },
    learn(o, sent) {
      learned.push({ overflow: o, sent });
      if (o.limit !== undefined) info = { ...info, tokens: o.limit, source: "learned", from: "refusal" };
      return o.limit === undefined ? { smaller: true } : { stated: o.limit, smaller: o.limit < tokens };
    },
    learnNoImages() {},
  };
  return { window, learned };
}

const settings = { maxRetries: 2, retryBaseMs: 100, baseURL: "https://api.openai.com/v1", api: "responses", apiKeySource: "env", provider: "openai", client: "openai" } as RecoveryInput["settings"];
const withReasoning = { providerOptions: { openai: { reasoningEffort: "high" } } } as RecoveryInput["callOptions"];

function input(error: unknown, over: Partial<RecoveryInput> = {}): RecoveryInput {
  return {
    error,
    state: { inlined: false, overflowRetried: false, attempt: 1 },
    callOptions: {},
    settings,
    modelId: "gpt-test",
    window: windowOf().window,
    sent: { requestTokens: 9_000, conversationTokens: 6_000 },
    fitsNow: () => ({ fits: true }),
    ...over,
  };
}

describe("recover: a step that failed before it showed anything", () => {
  test("a missing item: the history is sent again inline, once per turn", () => {
    expect(recover(input(missingItem))).toEqual({ action: "inline", notice: MISSING_ITEM_NOTICE });
    // Already inlined this turn: not again (a 404 is not retried either).
    expect(recover(input(missingItem, { state: { inlined: true, overflowRetried: false, attempt: 1 } }))).toEqual({ action: "fail" });
  });

  test("too long for the context: the window learns the stated size, and the request is pruned harder and sent again", () => {
    const { window, learned } = windowOf();
    const decision = recover(input(overflow, { window }));
    expect(decision.action).toBe("prune-harder");
    expect((decision as { notice: string }).notice).toContain("8,192 tokens");
    expect(learned).toEqual([{ overflow: { limit: 8192, inputTokens: 9000 }, sent: { requestTokens: 9_000, conversationTokens: 6_000 } }]);
    expect(window.info.tokens).toBe(8192);
  });

  test("too long again in the same step: the turn ends with what was tried and the ways out", () => {
    const { window, learned } = windowOf(8192);
    const decision = recover(input(overflow, { window, state: { inlined: false, overflowRetried: true, attempt: 1 } }));
    expect(decision.action).toBe("fail");
    expect((decision as { message: string }).message).toContain("still refused the request after it was pruned");
    // It ends with the server's own words, quoted on one line.
    expect((decision as { message: string }).message).toEndWith(`The session is intact. The server said: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."`);
    expect(learned).toEqual([]);
  });

  test("too long, and no pruning can fit it: the newest message alone too large is named as such; otherwise the whole", () => {
    const tooBig = recover(input(overflow, { fitsNow: () => ({ fits: false, promptTokens: 20_000, roomTokens: 5_000 }) }));
    expect(tooBig.action).toBe("fail");
    expect((tooBig as { message: string }).message).toContain("the message is about 20,000 tokens");
    const whole = recover(input(overflow, { fitsNow: () => ({ fits: false, promptTokens: 1_000, roomTokens: 5_000 }) }));
    expect((whole as { message: string }).message).toContain("even with all but the last messages' tool output pruned");
    for (const failed of [tooBig, whole]) expect((failed as { message: string }).message).toEndWith(`The server said: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."`);
  });

  test("the server's words are quoted on one line, clipped; an error without them adds nothing", () => {
    const long = apiError(400, body(`Prompt is too long:\n  ${"x".repeat(400)}\n`, "context_length_exceeded"));
    const message = (recover(input(long, { state: { inlined: false, overflowRetried: true, attempt: 1 } })) as { message: string }).message;
    const said = message.slice(message.indexOf("The server said: "));
    expect(said).toMatch(/^The server said: "Prompt is too long: x+…"$/);
    expect(said.length).toBeLessThan(230);
    expect(withServerWords("shiro's words.", new Error("fetch failed"))).toBe("shiro's words.");
  });

  test("a refused thinking level is dropped and the request sent without it; without one, the refusal ends the turn", () => {
    const decision = recover(input(reasoningRefused, { callOptions: withReasoning }));
    expect(decision).toMatchObject({ action: "drop-reasoning", notice: REASONING_DROPPED_NOTICE });
    expect(JSON.stringify((decision as { callOptions: unknown }).callOptions)).not.toContain("reasoningEffort");
    expect(recover(input(reasoningRefused))).toEqual({ action: "fail" });
  });

  test("a failure that may pass is waited out and tried again, up to maxRetries times a step", () => {
    const first = recover(input(rateLimited));
    expect(first.action).toBe("back-off");
    expect((first as { delayMs: number }).delayMs).toBeGreaterThan(0);
    expect((first as { notice: string }).notice).toContain("(attempt 2 of 3)");
    expect(recover(input(rateLimited, { state: { inlined: false, overflowRetried: false, attempt: 2 } })).action).toBe("back-off");
    expect(recover(input(rateLimited, { state: { inlined: false, overflowRetried: false, attempt: 3 } }))).toEqual({ action: "fail" });
  });

  test("a failure no retry changes (a bad key) ends the turn at once", () => {
    expect(recover(input(badKey))).toEqual({ action: "fail" });
  });
});
