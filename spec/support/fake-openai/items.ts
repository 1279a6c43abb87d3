// What this fake "OpenAI" remembers between requests: the output items and responses it issued.
// History validation resolves item_reference / inline ids / previous_response_id against it.
import type { NotFoundReason } from "./errors.ts";

export type ItemKind = "reasoning" | "message" | "function_call";

export type IssuedItem = {
  id: string;
  kind: ItemKind;
  /** function_call only. */
  callId?: string;
  /** For message/function_call: the reasoning item its response produced before it (the "required" one). */
  reasoningId?: string;
  /** false when produced by a request with store:false: it cannot be referenced without its content. */
  stored: boolean;
};

/** One entry of a resolved conversation, the unit history validation works on. */
export type ContextEntry = {
  kind: ItemKind | "function_call_output" | "other";
  /** "input[3]" for entries of the current request, "previous response" for chained context. */
  where: string;
  fromThisRequest: boolean;
  id?: string;
  callId?: string;
  role?: string;
  reasoningId?: string;
};

type IssuedResponse = { id: string; stored: boolean; context: ContextEntry[] };

export class ItemStore {
  private items = new Map<string, IssuedItem>();
  private responses = new Map<string, IssuedResponse>();
  private forgotten = new Set<string>();

  issue(item: IssuedItem): void {
    this.items.set(item.id, item);
  }

  lookup(id: string): { item: IssuedItem } | { missing: NotFoundReason } {
    if (this.forgotten.has(id)) return { missing: "forgotten" };
    const item = this.items.get(id);
    return item ? { item } : { missing: "never-issued" };
  }

  recordResponse(response: IssuedResponse): void {
    this.responses.set(response.id, response);
  }

  /** A previous_response_id must name a stored, not forgotten response of this server. */
  response(id: string): IssuedResponse | undefined {
    const found = this.responses.get(id);
    return found && found.stored && !this.forgotten.has(id) ? found : undefined;
  }

  /** Everything issued so far becomes unknown, as if the org's stored items had expired. */
  forgetAll(): void {
    for (const id of this.items.keys()) this.forgotten.add(id);
    for (const id of this.responses.keys()) this.forgotten.add(id);
    this.items.clear();
    this.responses.clear();
  }
}

/** The context entry an issued output item contributes (to a response's stored context). */
export function entryFor(item: IssuedItem, where: string, fromThisRequest: boolean): ContextEntry {
  return {
    kind: item.kind,
    where,
    fromThisRequest,
    id: item.id,
    callId: item.callId,
    role: item.kind === "message" ? "assistant" : undefined,
    reasoningId: item.reasoningId,
  };
}
