/**
 * Named providers: a preset fills in the base URL, the environment variable that holds the
 * key and the wire format. Local servers need no key.
 */
export type Api = "responses" | "chat";

export type Preset = { baseURL: string; keyEnv?: string; api: Api; defaultModel?: string };

export const PRESETS = {
  openai: { baseURL: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY", api: "responses", defaultModel: "gpt-5-mini" },
  openrouter: { baseURL: "https://openrouter.ai/api/v1", keyEnv: "OPENROUTER_API_KEY", api: "chat" },
  groq: { baseURL: "https://api.groq.com/openai/v1", keyEnv: "GROQ_API_KEY", api: "chat" },
  deepseek: { baseURL: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY", api: "chat", defaultModel: "deepseek-chat" },
  ollama: { baseURL: "http://localhost:11434/v1", api: "chat" },
  lmstudio: { baseURL: "http://localhost:1234/v1", api: "chat" },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** Servers on this machine (ollama, llama.cpp, LM Studio, the test server) take no key. */
export function isLocalURL(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
