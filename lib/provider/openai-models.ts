import { OpenAIChatLanguageModel, OpenAIResponsesLanguageModel } from "@ai-sdk/openai/internal";
import client from "@ai-sdk/openai/package.json" with { type: "json" };

/** What createOpenAI takes that shiro uses: everything else is left at the client's default. */
export type OpenAIModelOptions = { baseURL: string; apiKey: string; name: string; fetch: typeof fetch };

/**
 * The OpenAI client's Chat Completions or Responses model, built as `createOpenAI(options).chat(id)`
 * and `.responses(id)` build it (same provider names, URLs and headers), from the client's model
 * classes alone. Loading the whole client also sets up its realtime API's schemas, which shiro
 * never uses: about 5 ms of every start that talks to OpenAI. spec/provider/openai-models.test.ts
 * holds the two to the same requests.
 */
export function openAIModel(api: "chat" | "responses", modelId: string, options: OpenAIModelOptions): OpenAIChatLanguageModel | OpenAIResponsesLanguageModel {
  const baseURL = options.baseURL.replace(/\/$/, "");
  const common = {
    url: ({ path }: { path: string }) => `${baseURL}${path}`,
    headers: () => ({ authorization: `Bearer ${options.apiKey}`, "user-agent": `ai-sdk-openai/${client.version}` }),
    fetch: options.fetch,
  };
  if (api === "chat") return new OpenAIChatLanguageModel(modelId, { provider: `${options.name}.chat`, ...common });
  return new OpenAIResponsesLanguageModel(modelId, { provider: `${options.name}.responses`, baseURL, fileIdPrefixes: ["file-"], ...common });
}
