// The Chat Completions stream (POST /v1/chat/completions, stream:true), built from a scripted turn. Shapes follow
// the recorded streams in shared/fixtures/openai/chat: a role delta, content deltas, tool_calls deltas (id and
// name first, then argument fragments), a finish_reason chunk, a `choices: []` usage chunk when
// stream_options.include_usage is set, then `data: [DONE]`. Reasoning in the reply is ignored on this wire.
import { callId, completionId } from "./ids.ts";
import { argumentsOf, splitArgs, splitText, usageFor, type Usage } from "./reply.ts";
import type { TurnReply } from "./types.ts";

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

function chunkFactory(body: any) {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const withUsage = body.stream_options?.include_usage === true;
  return (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: body.model,
    service_tier: "default",
    system_fingerprint: "fp_fake0000001",
    choices,
    ...(withUsage ? { usage: null } : {}),
    ...extra,
  });
}

const choice = (delta: unknown, finish_reason: string | null = null) => ({
  index: 0,
  delta,
  logprobs: null,
  finish_reason,
});

/** Resolve scripted tool calls once, so the stream and the non-streaming body agree on ids. */
function resolvedCalls(reply: TurnReply) {
  return (reply.toolCalls ?? []).map((c) => ({ id: c.id ?? callId(), name: c.name, args: argumentsOf(c) }));
}

export function buildChatChunks(reply: TurnReply, body: any): Chunk[] {
  const chunk = chunkFactory(body);
  const calls = resolvedCalls(reply);
  // A tool-only turn starts with content:null, as the real API does (content "" would open an empty text part).
  const hasText = reply.text !== undefined || calls.length === 0;
  const chunks: Chunk[] = [chunk([choice({ role: "assistant", content: hasText ? "" : null, refusal: null })])];
  for (const content of splitText(reply.text ?? "")) chunks.push(chunk([choice({ content })]));
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
  chunks.push(chunk([choice({}, calls.length > 0 ? "tool_calls" : "stop")]));
  if (body.stream_options?.include_usage === true)
    chunks.push(chunk([], { usage: chatUsage(usageFor(reply, body, false)) }));
  return chunks;
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
  const calls = resolvedCalls(reply);
  return {
    id: completionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? (calls.length > 0 ? null : ""),
          refusal: null,
          annotations: [],
          ...(calls.length > 0 && {
            tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
          }),
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: chatUsage(usageFor(reply, body, false)),
    service_tier: "default",
    system_fingerprint: "fp_fake0000001",
  };
}
