// xAI's chat wire (api.x.ai). Reasoning streams as `delta.reasoning_content`; each tool call arrives whole in
// one delta; and usage reports reasoning tokens in `completion_tokens_details.reasoning_tokens` OUTSIDE
// `completion_tokens` (total_tokens = prompt + completion + reasoning), which is what makes naive cost low.
import { randomUUID } from "node:crypto";
import { callId, randomHex } from "../ids.ts";
import { splitText, type Usage } from "../reply.ts";
import { completionBody, DONE, frame, openaiStreamError, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";

export const xaiUsage = (u: Usage) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output - u.reasoning,
  total_tokens: u.input + u.output,
  prompt_tokens_details: { text_tokens: u.input, audio_tokens: 0, image_tokens: 0, cached_tokens: u.cached },
  completion_tokens_details: { reasoning_tokens: u.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  num_sources_used: 0,
});

function chunks(turn: ChatTurn): Chunk[] {
  const fingerprint = `fp_${randomHex(10)}`;
  const envelope = (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    choices,
    system_fingerprint: fingerprint,
    ...extra,
  });
  const delta = (d: Chunk, finish_reason: string | null = null) => envelope([{ index: 0, delta: { role: "assistant", ...d }, finish_reason }]);
  const out: Chunk[] = [];
  for (const reasoning_content of splitText(turn.reasoning)) out.push(delta({ reasoning_content }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content }));
  turn.calls.forEach((call, index) =>
    out.push(delta({ tool_calls: [{ id: call.id, function: { name: call.name, arguments: call.args }, index, type: "function" }] })),
  );
  out.push(delta({ content: "" }, turn.finish));
  if (turn.includeUsage) out.push(envelope([], { usage: xaiUsage(turn.usage) }));
  return out;
}

export const xaiChat: ChatDialect = {
  reasoning: true,
  completionId: () => randomUUID(),
  callId: () => callId(),
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, { usage: xaiUsage(turn.usage), message: turn.reasoning !== "" ? { reasoning_content: turn.reasoning } : {} }),
  streamError: (_turn, error) => openaiStreamError(error),
};
