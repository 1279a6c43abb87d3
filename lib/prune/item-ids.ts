import type { ModelMessage } from "ai";

/**
 * Provider item ids. The OpenAI Responses provider returns each output item's server-side id as
 * `providerOptions.openai.itemId` on the text, reasoning and tool-call parts, and sends a part that
 * still carries one as `{ type: "item_reference", id }`: a pointer to an item stored on the
 * provider's side. Without the id the same part is sent inline, which depends on nothing stored.
 */
export const ITEM_ID_KEY = "itemId";

/** Any content part of any message; the prune functions treat parts structurally. */
export type AnyPart = { type: string; providerOptions?: Record<string, Record<string, unknown> | undefined>; [key: string]: unknown };

/** The part's provider item id under any provider name (openai, azure, a custom name), if it has one. */
export function itemIdOf(part: AnyPart): string | undefined {
  for (const bag of [part.providerOptions, part.providerMetadata as AnyPart["providerOptions"]]) {
    if (!bag || typeof bag !== "object") continue;
    for (const options of Object.values(bag)) {
      const id = options?.[ITEM_ID_KEY];
      if (typeof id === "string" && id.length > 0) return id;
    }
  }
  return undefined;
}

/**
 * The part without its provider item id, everything else (phase, encrypted reasoning) kept; empty
 * option bags are removed. Returns the same part when it has no id. Never mutates the part.
 */
export function withoutItemId<P extends AnyPart>(part: P): P {
  if (itemIdOf(part) === undefined) return part;
  const out: AnyPart = { ...part };
  for (const key of ["providerOptions", "providerMetadata"] as const) {
    const bag = part[key] as AnyPart["providerOptions"];
    if (!bag || typeof bag !== "object") continue;
    const next: Record<string, Record<string, unknown>> = {};
    for (const [provider, options] of Object.entries(bag)) {
      if (!options) continue;
      const { [ITEM_ID_KEY]: _dropped, ...rest } = options;
      if (Object.keys(rest).length > 0) next[provider] = rest;
    }
    if (Object.keys(next).length > 0) out[key] = next;
    else delete out[key];
  }
  return out as P;
}

export function isReasoningPart(part: { type: string }): boolean {
  return part.type === "reasoning" || part.type === "reasoning-file";
}

/** The encrypted reasoning a part carries (`reasoningEncryptedContent`), which can be sent inline. */
export function encryptedReasoningOf(part: AnyPart): string | undefined {
  for (const options of Object.values(part.providerOptions ?? {})) {
    const content = options?.reasoningEncryptedContent;
    if (typeof content === "string" && content.length > 0) return content;
  }
  return undefined;
}

/** The content parts of a message as a uniform array (string content has none). */
export function partsOf(message: ModelMessage): readonly AnyPart[] {
  return typeof message.content === "string" ? [] : (message.content as unknown as readonly AnyPart[]);
}

/** A message with new content parts, or undefined when that leaves an assistant or tool message empty. */
export function withParts(message: ModelMessage, parts: readonly AnyPart[]): ModelMessage | undefined {
  if (parts.length === 0 && (message.role === "assistant" || message.role === "tool")) return undefined;
  return { ...message, content: parts } as unknown as ModelMessage;
}
