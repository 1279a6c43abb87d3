import { describe, expect, test } from "bun:test";
import { callOptions, withoutReasoning, withPromptCacheKey } from "../../lib/provider/call-options.ts";

const base = { model: "gpt-5", provider: "openai", thinking: "medium", thinkingChosen: false, store: true } as const;

describe("prompt_cache_key", () => {
  for (const api of ["responses", "chat"] as const) {
    test(`${api}, OpenAI client: the session id, beside the options already there`, () => {
      const settings = { ...base, api, client: "openai" } as const;
      const options = withPromptCacheKey(callOptions(settings), settings, "0193ab2c-session");
      expect(options.providerOptions?.openai).toMatchObject({ ...callOptions(settings).providerOptions?.openai, promptCacheKey: "0193ab2c-session" });
      // Dropping the thinking level for a server that refused it keeps the key.
      expect(withoutReasoning(options).providerOptions?.openai?.promptCacheKey).toBe("0193ab2c-session");
    });

    test(`${api}, compatible client: not sent`, () => {
      const settings = { ...base, api, client: "compatible", provider: "vllm" } as const;
      expect(withPromptCacheKey(callOptions(settings), settings, "s")).toEqual(callOptions(settings));
    });
  }
});
