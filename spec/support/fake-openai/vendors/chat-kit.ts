// The pieces every Chat Completions dialect is built from: a scripted turn resolved once (ids, usage, finish
// reason), SSE framing, and the dialect interface each vendor file implements.
import { argumentsOf, usageFor, type Usage } from "../reply.ts";
import type { StreamErrorReply, TurnReply } from "../types.ts";

export type Chunk = Record<string, unknown>;
export type ResolvedCall = { id: string; name: string; args: string };
export type Finish = "stop" | "tool_calls" | "length";
export type StreamError = StreamErrorReply["streamError"];

/** A scripted turn with everything decided: what both the stream and the non-streaming body describe. */
export type ChatTurn = {
  id: string;
  created: number;
  model: string;
  /** "" when the turn has no reasoning (or the dialect does not stream it). */
  reasoning: string;
  text?: string;
  calls: ResolvedCall[];
  usage: Usage;
  finish: Finish;
  /** stream_options.include_usage was set. */
  includeUsage: boolean;
};

/** One vendor's Chat Completions wire. */
export type ChatDialect = {
  /** Whether this server streams reasoning on the chat wire (its tokens then count in usage). */
  reasoning: boolean;
  completionId(): string;
  /** A new tool-call id in the vendor's format (scripted ids win). */
  callId(name: string, index: number): string;
  /** The SSE frames of a streamed turn, framing and terminator included. */
  stream(turn: ChatTurn): string[];
  /** The body of a non-streaming request. */
  completion(turn: ChatTurn): Chunk;
  /** An error inside a 200 stream: the frames after the turn's text, up to the end of the body. */
  streamError(turn: ChatTurn, error: StreamError): string[];
};

export function resolveTurn(reply: TurnReply, body: any, dialect: ChatDialect): ChatTurn {
  const calls = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? dialect.callId(c.name, i), name: c.name, args: argumentsOf(c) }));
  return {
    id: dialect.completionId(),
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    reasoning: dialect.reasoning ? (reply.reasoning ?? "") : "",
    text: reply.text,
    calls,
    usage: usageFor(reply, body, dialect.reasoning),
    finish: reply.finish === "length" ? "length" : calls.length > 0 ? "tool_calls" : "stop",
    includeUsage: body.stream_options?.include_usage === true,
  };
}

export const frame = (data: Chunk | string) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
export const DONE = frame("[DONE]");
/** An SSE comment line (keep-alives such as OpenRouter's ": OPENROUTER PROCESSING"). */
export const comment = (text: string) => `: ${text}\n\n`;
/** A named SSE event (Groq's `event: error`). */
export const namedFrame = (event: string, data: Chunk) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** OpenAI-style usage numbers (prompt/completion/total), reasoning counted inside completion_tokens. */
export const basicUsage = (u: Usage) => ({ prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output });

/** A non-streaming body in the common shape; vendors add their reasoning field and usage form. */
export function completionBody(turn: ChatTurn, opts: { usage: unknown; message?: Chunk; extra?: Chunk }): Chunk {
  return {
    id: turn.id,
    object: "chat.completion",
    created: turn.created,
    model: turn.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? (turn.calls.length > 0 ? null : ""),
          ...opts.message,
          ...(turn.calls.length > 0 && {
            tool_calls: turn.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
          }),
        },
        finish_reason: turn.finish,
      },
    ],
    usage: opts.usage,
    ...opts.extra,
  };
}

/** The in-stream error most OpenAI-compatible servers send: a bare `data: {"error": …}` line, then the body ends. */
export function openaiStreamError(error: StreamError): string[] {
  return [frame({ error: { message: error.message, type: error.type ?? "server_error", param: null, code: error.code ?? null } })];
}
