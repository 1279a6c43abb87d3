import { providerMessage } from "./message.ts";

/** A request refused as too long for the model's context, and what the refusal said about it. */
export type ContextOverflow = {
  /** The window the server stated, in its tokens; undefined when it named none. */
  limit?: number;
  /** The server's count of the request's input, when it gave one: how far shiro's estimate is off. */
  inputTokens?: number;
};

/** Error codes and types that mean "too long for the context", whatever the message says. */
const OVERFLOW_CODES = /^(context_length_exceeded|exceed_context_size_error|context_window_exceeded|string_above_max_length)$/;

/** Wordings of a context refusal (OpenAI, vLLM, llama.cpp, OpenRouter, Mistral, Gemini, xAI, Anthropic-style gateways, …). */
const OVERFLOW_WORDS =
  /maximum context length|maximum prompt length is \d+|input token count \(?[\d,]+\)? exceeds the maximum number of tokens|context length exceeded|exceeds? the (available )?context (size|window|length)|context window (of this model|exceeded)|too large for model with \d+ maximum context|input tokens exceed the configured limit|prompt is too long|reduce the length of the (messages|input)/i;

/** The stated window, most specific wording first; each has one capture. */
const LIMIT_PATTERNS: readonly RegExp[] = [
  /maximum context length is ([\d,]+) tokens/i,
  /available context size \(([\d,]+) tokens\)/i,
  /configured limit of ([\d,]+) tokens/i,
  /with ([\d,]+) maximum context length/i,
  /context (?:window|length|size) (?:of|is) ([\d,]+) tokens/i,
  /prompt is too long: [\d,]+ tokens > ([\d,]+) maximum/i,
  /maximum prompt length is ([\d,]+)/i,
  /maximum number of tokens allowed \(([\d,]+)\)/i,
];

/** The server's count of the input, where its message gives one. */
const INPUT_PATTERNS: readonly RegExp[] = [
  /your request has ([\d,]+) input tokens/i,
  /prompt contains at least ([\d,]+) input tokens/i,
  /\(([\d,]+) in the messages/i,
  /messages resulted in ([\d,]+) tokens/i,
  /\(([\d,]+) of text input/i,
  /^request \(([\d,]+) tokens\)/im,
  /prompt contains ([\d,]+) tokens/i,
  /prompt is too long: ([\d,]+) tokens/i,
  /request contains ([\d,]+) tokens/i,
  /input token count \(([\d,]+)\)/i,
];

/**
 * The context-length refusal in `error`, or undefined for any other error. Reads what the AI SDK
 * throws or streams, by shape (this module does not load the SDK): an APICallError (directly,
 * inside a RetryError, or as a cause) with status 400 or 413 — the SDK also maps an in-stream
 * Responses `context_length_exceeded` to 400 — or an error object from a 200 chat stream. Matches
 * the error code first (`context_length_exceeded`, llama.cpp's `exceed_context_size_error`), then
 * the wordings servers use. Never throws.
 */
export function contextOverflow(error: unknown): ContextOverflow | undefined {
  for (const found of errorsIn(error)) {
    if (typeof found.status === "number" && found.status !== 400 && found.status !== 413) continue;
    const { text, codes, numbers } = readError(found);
    if (!codes.some((c) => OVERFLOW_CODES.test(c)) && !OVERFLOW_WORDS.test(text)) continue;
    const limit = numbers.n_ctx ?? firstNumber(text, LIMIT_PATTERNS);
    const inputTokens = numbers.n_prompt_tokens ?? firstNumber(text, INPUT_PATTERNS);
    return { ...(limit ? { limit } : {}), ...(inputTokens ? { inputTokens } : {}) };
  }
  return undefined;
}

type Found = { status?: number; body?: unknown; message?: string; data?: unknown; self?: unknown };

/** The errors in a chain (RetryError's lastError, causes), each with what it carries. */
function errorsIn(error: unknown): Found[] {
  const out: Found[] = [];
  const seen = new Set<unknown>();
  for (let e = error, depth = 0; e && typeof e === "object" && !seen.has(e) && depth < 6; depth++) {
    seen.add(e);
    const o = e as { name?: unknown; statusCode?: unknown; responseBody?: unknown; message?: unknown; data?: unknown; lastError?: unknown; cause?: unknown };
    out.push({
      ...(typeof o.statusCode === "number" ? { status: o.statusCode } : {}),
      body: o.responseBody,
      ...(typeof o.message === "string" ? { message: o.message } : {}),
      data: o.data,
      self: o,
    });
    e = o.name === "AI_RetryError" && o.lastError ? o.lastError : o.cause;
  }
  return out;
}

/** All the text, codes and numeric fields of one error: its body (as JSON or text), its data, its message. */
function readError(found: Found): { text: string; codes: string[]; numbers: { n_ctx?: number; n_prompt_tokens?: number } } {
  const texts: string[] = [];
  const codes: string[] = [];
  const numbers: { n_ctx?: number; n_prompt_tokens?: number } = {};
  const visit = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object" || depth > 4) return;
    // Google's APIs send the error body inside a list.
    if (Array.isArray(value)) return value.forEach((item) => visit(item, depth + 1));
    const o = value as Record<string, unknown>;
    for (const key of ["code", "type"]) if (typeof o[key] === "string") codes.push(o[key] as string);
    if (typeof o.message === "string") texts.push(o.message);
    if (typeof o.raw === "string") texts.push(o.raw);
    for (const key of ["n_ctx", "n_prompt_tokens"] as const) if (typeof o[key] === "number" && o[key] > 0) numbers[key] ??= o[key] as number;
    for (const key of ["error", "metadata", "response"]) visit(o[key], depth + 1);
  };
  if (typeof found.body === "string") {
    const message = providerMessage(found.body);
    if (message) texts.push(message);
    try {
      visit(JSON.parse(found.body), 0);
    } catch {}
  }
  visit(found.data, 0);
  // A plain error object from a 200 chat stream carries its fields itself.
  if (found.status === undefined) visit(found.self, 0);
  if (found.message) texts.push(found.message);
  return { text: texts.join("\n"), codes, numbers };
}

function firstNumber(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    const n = match ? Number(match[1]!.replace(/,/g, "")) : Number.NaN;
    if (Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}
