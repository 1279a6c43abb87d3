// Groq's chat wire. The first chunk and the finish chunk carry `x_groq` (request id; usage with Groq's timing
// fields), each tool call arrives whole in one delta (Kimi-style ids `functions.<name>:<i>`), reasoning streams
// as `delta.reasoning`, and an error inside the stream is an `event: error` SSE frame. Modelled on real-streams/groq.
import { randomUUID } from "node:crypto";
import { randomHex, uniqueToken } from "../ids.ts";
import { splitText, type Usage } from "../reply.ts";
import { completionBody, DONE, frame, namedFrame, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";

export const groqUsage = (u: Usage) => ({
  queue_time: 0.2,
  prompt_tokens: u.input,
  prompt_time: 0.02,
  completion_tokens: u.output,
  completion_time: 0.17,
  total_tokens: u.input + u.output,
  total_time: 0.19,
});

const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";

function chunks(turn: ChatTurn): Chunk[] {
  const fingerprint = `fp_${randomHex(10)}`;
  const request = `req_${uniqueToken(26, LOWER)}`;
  const envelope = (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    system_fingerprint: fingerprint,
    choices,
    ...extra,
  });
  const delta = (d: unknown, finish_reason: string | null = null, extra: Chunk = {}) =>
    envelope([{ index: 0, delta: d, logprobs: null, finish_reason }], extra);
  const out = [delta({ role: "assistant", content: "" }, null, { x_groq: { id: request, seed: 690443319 } })];
  for (const reasoning of splitText(turn.reasoning)) out.push(delta({ reasoning }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content }));
  turn.calls.forEach((call, index) =>
    out.push(delta({ tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.args }, index }] })),
  );
  const usage = groqUsage(turn.usage);
  out.push(delta({}, turn.finish, { x_groq: { id: request, usage }, ...(turn.includeUsage && { usage }) }));
  if (turn.includeUsage) out.push(envelope([], { usage, service_tier: "on_demand" }));
  return out;
}

export const groqChat: ChatDialect = {
  reasoning: true,
  completionId: () => `chatcmpl-${randomUUID()}`,
  callId: (name, index) => `functions.${name}:${index}`,
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, {
      usage: groqUsage(turn.usage),
      message: turn.reasoning !== "" ? { reasoning: turn.reasoning } : {},
      extra: { x_groq: { id: `req_${uniqueToken(26, LOWER)}` } },
    }),
  // Groq names the frame: `event: error`, then the body ends.
  streamError: (_turn, error) => [
    namedFrame("error", { error: { message: error.message, type: error.type ?? "internal_server_error", code: error.code ?? null } }),
  ],
};
