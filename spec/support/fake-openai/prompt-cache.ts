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
  // The prompt cache and the usage both read it for the same request: the last one is kept.
  if (body === last.body) return last.text;
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? JSON.stringify(body.tools) : "";
  const text = tools + String(body.instructions ?? "") + JSON.stringify(body.messages ?? body.input ?? "");
  if (body && typeof body === "object") last = { body, text };
  return text;
}
let last: { body: unknown; text: string } = { body: undefined, text: "" };

/** Tokens of a shared prefix of `chars` characters that a cache hit would cover: 0 below the minimum, else whole blocks. */
export function cachedTokensFor(sharedChars: number): number {
  const tokens = Math.floor(sharedChars / CHARS_PER_TOKEN);
  if (tokens < MIN_CACHED_TOKENS) return 0;
  return MIN_CACHED_TOKENS + Math.floor((tokens - MIN_CACHED_TOKENS) / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
}

// A hit covers whole 128-token blocks, and 128 tokens are BLOCK_CHARS characters, so cachedTokensFor
// depends only on how many whole blocks of characters two prompts share. Each prompt is kept as a
// chain of hashes, one per whole block, each hashing its block together with the hash before it: the
// n-th hash stands for the first n blocks. Two prompts share n blocks when their n-th hashes are equal
// (64-bit hashes: a false match is not a practical concern), so no prompt is compared character by character.
const BLOCK_CHARS = CACHE_BLOCK_TOKENS * CHARS_PER_TOKEN;

function blockChain(prompt: string): bigint[] {
  // The characters' UTF-16 code units are hashed, not their UTF-8 text: a block boundary can split
  // an emoji in two, and a lone half would be encoded as U+FFFD whichever emoji it came from.
  const units = Buffer.from(prompt, "utf16le");
  const blockBytes = BLOCK_CHARS * 2;
  const chain: bigint[] = [];
  let hash = 0n;
  for (let at = blockBytes; at <= units.length; at += blockBytes) chain.push((hash = Bun.hash.wyhash(units.subarray(at - blockBytes, at), hash)));
  return chain;
}

/** The prompts kept for one cache key: their chains, and how many of them hold each hash. */
type KeptPrompts = { chains: bigint[][]; holders: Map<bigint, number> };

export class PromptCache {
  private readonly byKey = new Map<string, KeptPrompts>();

  /** The cached tokens for this request, then remembers its prompt for later requests. */
  admit(body: any): number {
    const key = typeof body.prompt_cache_key === "string" ? body.prompt_cache_key : "";
    const chain = blockChain(promptText(body));
    let kept = this.byKey.get(key);
    if (!kept) this.byKey.set(key, (kept = { chains: [], holders: new Map() }));
    // An earlier prompt holds the n-th hash only if it also holds every one before it.
    let blocks = 0;
    while (blocks < chain.length && kept.holders.has(chain[blocks]!)) blocks++;
    kept.chains.push(chain);
    for (const hash of chain) kept.holders.set(hash, (kept.holders.get(hash) ?? 0) + 1);
    if (kept.chains.length > MAX_KEPT) {
      for (const hash of kept.chains.shift()!) {
        const left = kept.holders.get(hash)! - 1;
        if (left === 0) kept.holders.delete(hash);
        else kept.holders.set(hash, left);
      }
    }
    return cachedTokensFor(blocks * BLOCK_CHARS);
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
