// The Chat Completions stream (POST /v1/chat/completions, stream:true), built from a scripted turn. Shapes follow
// the recorded streams in shared/fixtures/openai/chat: a role delta, content deltas, tool_calls deltas (id and
// name first, then argument fragments), a finish_reason chunk, a `choices: []` usage chunk when
// stream_options.include_usage is set, then `data: [DONE]`. Reasoning in the reply is ignored on this wire.
// This is the default dialect; vendors/ holds the others.
import { callId, completionId } from "./ids.ts";
import { splitArgs, splitText, type Usage } from "./reply.ts";
import type { TurnReply } from "./types.ts";
import { openaiStreamError, resolveTurn, type ChatDialect, type ChatTurn } from "./vendors/chat-kit.ts";

export function chatUsage(u: Usage) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

type Chunk = Record<string, unknown>;

function chunkFactory(turn: ChatTurn) {
  return (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    service_tier: "default",
    system_fingerprint: "fp_fake0000001",
    choices,
    ...(turn.includeUsage ? { usage: null } : {}),
    ...extra,
  });
}

const choice = (delta: unknown, finish_reason: string | null = null) => ({
  index: 0,
  delta,
  logprobs: null,
  finish_reason,
});

export function openaiChunks(turn: ChatTurn): Chunk[] {
  const chunk = chunkFactory(turn);
  const { calls } = turn;
  // A tool-only turn starts with content:null, as the real API does (content "" would open an empty text part).
  const hasText = turn.text !== undefined || calls.length === 0;
  const chunks: Chunk[] = [chunk([choice({ role: "assistant", content: hasText ? "" : null, refusal: null })])];
  for (const content of splitText(turn.text ?? "")) chunks.push(chunk([choice({ content })]));
  calls.forEach((call, index) => {
    chunks.push(
      chunk([
        choice({
          tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
        }),
      ]),
    );
    for (const fragment of splitArgs(call.args))
      chunks.push(chunk([choice({ tool_calls: [{ index, function: { arguments: fragment } }] })]));
  });
  chunks.push(chunk([choice({}, turn.finish)]));
  if (turn.includeUsage) chunks.push(chunk([], { usage: chatUsage(turn.usage) }));
  return chunks;
}

/** OpenAI's own chat wire, the default. Reasoning is not streamed on it. */
export const openaiChat: ChatDialect = {
  reasoning: false,
  completionId,
  callId: () => callId(),
  stream: (turn) => [...openaiChunks(turn).map(chatFrame), chatFrame("[DONE]")],
  completion: (turn) => ({
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
          refusal: null,
          annotations: [],
          ...(turn.calls.length > 0 && {
            tool_calls: turn.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
          }),
        },
        logprobs: null,
        finish_reason: turn.finish,
      },
    ],
    usage: chatUsage(turn.usage),
    service_tier: "default",
    system_fingerprint: "fp_fake0000001",
  }),
  streamError: (_turn, error) => openaiStreamError(error),
};

export function buildChatChunks(reply: TurnReply, body: any): Chunk[] {
  return openaiChunks(resolveTurn(reply, body, openaiChat));
}

/** Chunks a broken stream sends before its fault: the role delta and the text deltas, no finish or usage. */
export function chatFaultPrefix(text: string | undefined, body: any): Chunk[] {
  const all = buildChatChunks({ text: text ?? "" }, body);
  return all.slice(0, 1 + splitText(text ?? "").length);
}

export function chatFrame(chunk: Chunk | "[DONE]"): string {
  return `data: ${chunk === "[DONE]" ? chunk : JSON.stringify(chunk)}\n\n`;
}

/** Non-streaming body (stream absent or false), for callers such as generateText. */
export function buildChatCompletion(reply: TurnReply, body: any): Chunk {
  return openaiChat.completion(resolveTurn(reply, body, openaiChat));
}
