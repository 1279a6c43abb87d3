// OpenRouter's chat wire, here in front of a Gemini upstream (Google AI Studio). Keep-alive comments
// (`: OPENROUTER PROCESSING`) come first; choices carry `native_finish_reason`; reasoning streams as
// `delta.reasoning` plus `reasoning_details` (`reasoning.text`), and a turn with tool calls carries Gemini's
// thought signature as a `reasoning.encrypted` detail, which must come back on the follow-up (echo-rules.ts);
// finish_reason is sent twice, the second time with usage and `cost`. An in-stream error is a chunk with a
// top-level `error: {code, message, metadata}`. Modelled on real-streams/openrouter.
import { uniqueToken } from "../ids.ts";
import { splitArgs, splitText, type Usage } from "../reply.ts";
import { comment, completionBody, DONE, frame, type ChatDialect, type ChatTurn, type Chunk, type StreamError } from "./chat-kit.ts";

export const OPENROUTER_PROVIDER = "Google AI Studio";

/** The opaque thought signature Gemini attaches to a turn's function calls (named after the first call). */
export function thoughtSignature(callId: string): string {
  return Buffer.from(`fake-gemini-thought-signature:${callId}`).toString("base64");
}

/** The `reasoning_details` a turn produces: its reasoning text, then the signature when it calls tools. */
export function reasoningDetails(turn: ChatTurn): Chunk[] {
  const details: Chunk[] = [];
  if (turn.reasoning !== "") details.push({ type: "reasoning.text", text: turn.reasoning, index: 0, format: null });
  const first = turn.calls[0];
  if (first) details.push({ type: "reasoning.encrypted", data: thoughtSignature(first.id), format: "google-gemini-v1", id: first.id, index: details.length });
  return details;
}

export function openrouterUsage(u: Usage) {
  const cost = (u.input * 0.25 + u.output * 1.5) / 1_000_000;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    cost,
    is_byok: false,
    prompt_tokens_details: { cached_tokens: u.cached, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 },
    cost_details: { upstream_inference_cost: cost, upstream_inference_prompt_cost: (u.input * 0.25) / 1_000_000, upstream_inference_completions_cost: (u.output * 1.5) / 1_000_000 },
    completion_tokens_details: { reasoning_tokens: u.reasoning, image_tokens: 0, audio_tokens: 0 },
  };
}

const envelopeOf = (turn: ChatTurn) => (choices: unknown[], extra: Chunk = {}): Chunk => ({
  id: turn.id,
  object: "chat.completion.chunk",
  created: turn.created,
  model: turn.model,
  provider: OPENROUTER_PROVIDER,
  choices,
  ...extra,
});

function chunks(turn: ChatTurn): Chunk[] {
  const envelope = envelopeOf(turn);
  const delta = (d: Chunk, finish_reason: string | null = null, native: string | null = null) =>
    envelope([{ index: 0, delta: d, finish_reason, native_finish_reason: native }]);
  const out: Chunk[] = [];
  for (const text of splitText(turn.reasoning))
    out.push(delta({ role: "assistant", content: "", reasoning: text, reasoning_details: [{ type: "reasoning.text", text, index: 0, format: null }] }));
  const signature = reasoningDetails(turn).filter((d) => d.type === "reasoning.encrypted");
  if (signature.length > 0) out.push(delta({ content: "", role: "assistant", reasoning: null, reasoning_details: signature }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content, role: "assistant" }));
  turn.calls.forEach((call, index) => {
    out.push(delta({ content: null, role: "assistant", tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const arguments_ of splitArgs(call.args))
      out.push(delta({ content: null, role: "assistant", tool_calls: [{ index, function: { arguments: arguments_ } }] }));
  });
  const native = turn.finish === "length" ? "MAX_TOKENS" : "STOP";
  out.push(delta({ content: "", role: "assistant", reasoning: null }, turn.finish, native));
  out.push(envelope([{ index: 0, delta: { content: "", role: "assistant" }, finish_reason: turn.finish, native_finish_reason: native }], { usage: openrouterUsage(turn.usage) }));
  return out;
}

const KEEPALIVES = [comment("OPENROUTER PROCESSING"), comment("OPENROUTER PROCESSING"), comment("OPENROUTER PROCESSING")];

export const openrouterChat: ChatDialect = {
  reasoning: true,
  completionId: () => `gen-${Math.floor(Date.now() / 1000)}-${uniqueToken(20)}`,
  callId: (name) => `tool_${name}_${uniqueToken(20)}`,
  stream: (turn) => [...KEEPALIVES, ...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, {
      usage: openrouterUsage(turn.usage),
      message: { refusal: null, reasoning: turn.reasoning || null, reasoning_details: reasoningDetails(turn) },
      extra: { provider: OPENROUTER_PROVIDER },
    }),
  // HTTP 200 all along: a chunk with a top-level `error` beside an empty choice (and the usage so far), then [DONE].
  streamError: (turn, error: StreamError) => [
    frame(
      envelopeOf(turn)([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, native_finish_reason: null, logprobs: null }], {
        error: {
          code: error.code ?? 502,
          message: error.message,
          ...(error.raw !== undefined && { metadata: { raw: error.raw, provider_name: OPENROUTER_PROVIDER } }),
        },
        usage: openrouterUsage(turn.usage),
      }),
    ),
    DONE,
  ],
};
