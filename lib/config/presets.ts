/**
 * Named providers: a preset fills in the base URL, the environment variable that holds the
 * key and the wire format. Local servers need no key.
 */
export type Api = "responses" | "chat";

/** The client library that speaks to the server (see Settings.client). */
export type Client = "openai" | "compatible";

export type Preset = { baseURL: string; keyEnv?: string; api: Api; defaultModel?: string };

export const PRESETS = {
  openai: { baseURL: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY", api: "responses", defaultModel: "gpt-5-mini" },
  openrouter: { baseURL: "https://openrouter.ai/api/v1", keyEnv: "OPENROUTER_API_KEY", api: "chat" },
  groq: { baseURL: "https://api.groq.com/openai/v1", keyEnv: "GROQ_API_KEY", api: "chat" },
  deepseek: { baseURL: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY", api: "chat", defaultModel: "deepseek-chat" },
  xai: { baseURL: "https://api.x.ai/v1", keyEnv: "XAI_API_KEY", api: "chat", defaultModel: "grok-code-fast-1" },
  mistral: { baseURL: "https://api.mistral.ai/v1", keyEnv: "MISTRAL_API_KEY", api: "chat", defaultModel: "devstral-medium-latest" },
  together: { baseURL: "https://api.together.xyz/v1", keyEnv: "TOGETHER_API_KEY", api: "chat" },
  fireworks: { baseURL: "https://api.fireworks.ai/inference/v1", keyEnv: "FIREWORKS_API_KEY", api: "chat" },
  gemini: { baseURL: "https://generativelanguage.googleapis.com/v1beta/openai", keyEnv: "GEMINI_API_KEY", api: "chat", defaultModel: "gemini-2.5-flash" },
  ollama: { baseURL: "http://localhost:11434/v1", api: "chat" },
  lmstudio: { baseURL: "http://localhost:1234/v1", api: "chat" },
  vllm: { baseURL: "http://localhost:8000/v1", api: "chat" },
  llamacpp: { baseURL: "http://localhost:8080/v1", api: "chat" },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** The variables shiro reads a preset's key from, in that order, as a user is told to set them: "SHIRO_API_KEY or GROQ_API_KEY". */
export function keyVariables(provider: string, client: Client): string {
  const keyEnv = (PRESETS as Record<string, Preset>)[provider]?.keyEnv;
  // OPENAI_API_KEY goes only to a server that gets the OpenAI client (see resolveSettings).
  return keyEnv && (keyEnv !== "OPENAI_API_KEY" || client === "openai") ? `SHIRO_API_KEY or ${keyEnv}` : "SHIRO_API_KEY";
}

/** Servers on this machine (ollama, llama.cpp, LM Studio, the test server) take no key. */
export function isLocalURL(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Whether a base URL's path names no API version (`http://localhost:11434`, not `…/v1` or
 * `…/v1beta/openai`): the usual reason a server answers 404 to every request shiro makes.
 */
export function lacksApiVersion(url: string): boolean {
  try {
    return !/\/v\d/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * The client for a base URL: OpenAI's own API and Azure OpenAI get the OpenAI client (item
 * references, `store`, reasoning summaries); every other server gets the client written for
 * compatible servers, which accepts what they really send (tool calls without `index`,
 * `reasoning_content`, chunks without choices).
 */
export function clientForHost(url: string): Client {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "compatible";
  }
  const openai = host === "api.openai.com" || host.endsWith(".openai.azure.com") || host.endsWith(".cognitiveservices.azure.com") || host.endsWith(".services.ai.azure.com");
  return openai ? "openai" : "compatible";
}
