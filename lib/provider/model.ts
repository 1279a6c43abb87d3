import type { LanguageModel } from "ai";
import type { Settings } from "../config/resolve.ts";
import { withIdleTimeout } from "./idle-timeout.ts";

/**
 * Builds the language model for these settings. Imported lazily by the commands that talk to a
 * model, so `--version` and `--help` never load the AI SDK.
 */
export async function createModel(settings: Settings, fetchImpl?: typeof fetch): Promise<LanguageModel> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  const provider = createOpenAI({
    baseURL: settings.baseURL,
    // Local servers ignore the key, but the client insists on sending one.
    apiKey: settings.apiKey ?? "local",
    name: settings.provider,
    // A stalled provider is given up after settings.idleTimeoutMs instead of Bun's silent five minutes.
    fetch: withIdleTimeout(fetchImpl ?? fetch, settings.idleTimeoutMs),
  });
  return settings.api === "chat" ? provider.chat(settings.model) : provider.responses(settings.model);
}
