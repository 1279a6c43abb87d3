// Prompt caching the way OpenAI documents it (platform.openai.com/docs/guides/prompt-caching): a request
// reuses the longest prefix it shares, byte for byte, with an earlier request routed to the same cache —
// requests with the same `prompt_cache_key` (or none); nothing is cached below 1,024 tokens; hits grow in
// 128-token blocks (1,024, 1,152, 1,280, …). The reply's usage then reports those tokens as cached
// (`prompt_tokens_details.cached_tokens` on chat, `input_tokens_details.cached_tokens` on Responses).
//
// Tokens are counted as estimateInputTokens counts them (context-limit.ts): characters / 4 over the
// request's tools, instructions and history, taken in the order a server reads them — tool definitions,
// then instructions, then the messages (chat) or input items (Responses) — so the "prompt" compared here
// is exactly as long as the estimate. Only the latest MAX_KEPT prompts per key are kept (the real cache
// also forgets: after minutes of inactivity).
export const MIN_CACHED_TOKENS = 1024;
export const CACHE_BLOCK_TOKENS = 128;
const MAX_KEPT = 16;
const CHARS_PER_TOKEN = 4;

/** The prompt as one string in the order a server reads it; its length is estimateInputTokens' chars. */
export function promptText(body: any): string {
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? JSON.stringify(body.tools) : "";
  return tools + String(body.instructions ?? "") + JSON.stringify(body.messages ?? body.input ?? "");
}

/** Tokens of a shared prefix of `chars` characters that a cache hit would cover: 0 below the minimum, else whole blocks. */
export function cachedTokensFor(sharedChars: number): number {
  const tokens = Math.floor(sharedChars / CHARS_PER_TOKEN);
  if (tokens < MIN_CACHED_TOKENS) return 0;
  return MIN_CACHED_TOKENS + Math.floor((tokens - MIN_CACHED_TOKENS) / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
}

function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  // Compare in slices first: long shared prefixes are the common case.
  let i = 0;
  for (const step of [4096, 256, 16]) while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export class PromptCache {
  private readonly byKey = new Map<string, string[]>();

  /** The cached tokens for this request, then remembers its prompt for later requests. */
  admit(body: any): number {
    const key = typeof body.prompt_cache_key === "string" ? body.prompt_cache_key : "";
    const prompt = promptText(body);
    const kept = this.byKey.get(key) ?? [];
    let best = 0;
    for (const earlier of kept) best = Math.max(best, sharedPrefix(prompt, earlier));
    kept.push(prompt);
    if (kept.length > MAX_KEPT) kept.shift();
    this.byKey.set(key, kept);
    return cachedTokensFor(best);
  }
}

/** The cached tokens the server found for an accepted request body, read when its usage is built (reply.ts). */
const cachedByBody = new WeakMap<object, number>();
export function noteCachedTokens(body: object, tokens: number): void {
  cachedByBody.set(body, tokens);
}
export function cachedTokensOf(body: unknown): number {
  return body && typeof body === "object" ? (cachedByBody.get(body) ?? 0) : 0;
}
