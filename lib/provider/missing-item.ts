import { providerMessage } from "./message.ts";
/** Shown once when a turn was rescued by re-sending its history inline, the provider having said an item was not found. */
export const MISSING_ITEM_NOTICE = "the provider no longer had part of this session stored. Re-sent the history inline and carried on.";

/**
 * The notice for a turn isMissingItemError rescued, worded by what is known: lost state only
 * when the provider said an item was not found; for any other error, what it answered and what
 * shiro did (the error may have had nothing to do with the references; re-sending inline is
 * harmless either way).
 */
export function missingItemNotice(error: unknown): string {
  if (missingItemId(error) !== undefined) return MISSING_ITEM_NOTICE;
  const status = unwrap(error)?.statusCode;
  return `the provider answered ${typeof status === "number" ? status : "an error"} to a request that pointed at stored items; sent the history inline instead`;
}

const MISSING_ITEM = /Item with id ['"]([^'"]+)['"] not found/;

/**
 * The id of the stored item the provider said it no longer has (`404 Item with id 'msg_…' not
 * found.`, including the store=false and Zero Data Retention variants), or undefined for any
 * other error. Reads the SDK's APICallError (directly or as a RetryError's last error) by shape,
 * so this module does not load the SDK. Status 404 is the HTTP answer; 400 is also accepted
 * because the SDK maps an in-stream `invalid_request_error` to 400. Never throws.
 */
export function missingItemId(error: unknown): string | undefined {
  const e = unwrap(error);
  if (!e) return undefined;
  if (e.statusCode !== 404 && e.statusCode !== 400) return undefined;
  const text = providerMessage(e.responseBody) ?? (typeof e.message === "string" ? e.message : "");
  return MISSING_ITEM.exec(text)?.[1];
}

/**
 * Statuses that answer a request carrying item references but say nothing about them: a bad key,
 * a missing permission, a rate limit or a transient conflict. Inlining for those would throw the
 * session's references away for no gain (and a rate limit is retried as such).
 */
const NOT_ABOUT_ITEMS = new Set([401, 403, 408, 409, 429]);

/**
 * True when the history's item references are the likely cause of the failure, so the same request
 * fails identically every time: OpenAI's "Item with id '…' not found" (the item is not stored any
 * more), or any other 4xx/5xx answering a request that carried `item_reference`s — a server that
 * never stored them words it its own way (ollama's 400 "unknown input item type", vLLM's 500).
 * Not for a context-window overflow, which inlining would only make worse.
 * The answer is `inlineHistory` and one retry, only when nothing has been shown yet.
 */
export function isMissingItemError(error: unknown): boolean {
  if (missingItemId(error) !== undefined) return true;
  const e = unwrap(error);
  if (!e || typeof e.statusCode !== "number" || e.statusCode < 400 || e.statusCode > 599 || NOT_ABOUT_ITEMS.has(e.statusCode)) return false;
  const text = providerMessage(e.responseBody) ?? (typeof e.message === "string" ? e.message : "");
  // A request too long for the model is not cured by sending it inline: that only makes it longer.
  if (CONTEXT_OVERFLOW.test(text) || String(e.responseBody ?? "").includes("context_length_exceeded")) return false;
  return carriesItemReferences(e.requestBodyValues);
}

/** The wordings servers use for a request that does not fit the model's context window. */
const CONTEXT_OVERFLOW = /context (length|window|size)|maximum context|too many tokens|reduce the length/i;

/** A Responses request body whose `input` refers to a stored item by id (`{ type: "item_reference" }`). */
function carriesItemReferences(body: unknown): boolean {
  const input = (body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) && input.some((item) => (item as { type?: unknown } | null)?.type === "item_reference");
}

type ApiCallErrorShape = { statusCode?: unknown; responseBody?: unknown; message?: unknown; requestBodyValues?: unknown };

function unwrap(error: unknown): ApiCallErrorShape | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const o = e as ApiCallErrorShape & { name?: unknown; lastError?: unknown; cause?: unknown };
    if (o.name === "AI_RetryError" && o.lastError) e = o.lastError;
    else if (typeof o.statusCode === "number") return o;
    else e = o.cause;
  }
  return undefined;
}
