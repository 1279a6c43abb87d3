// llama.cpp's llama-server chat wire. Reasoning streams as `delta.reasoning_content`; the first tool-call delta
// already carries the first argument fragment; ids are 32 alphanumerics; usage comes in a `choices: []` chunk
// that also carries llama.cpp's `timings`. Keys in llama-server's order. Modelled on real-streams/llamacpp.
import { randomAlnum } from "../ids.ts";
import { splitArgs, splitText } from "../reply.ts";
import { basicUsage, completionBody, DONE, frame, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";

const FINGERPRINT = "b7010-fake0llama";

/** The per-request timings llama-server reports beside usage. */
export function timings(turn: ChatTurn) {
  const predicted_ms = turn.usage.output * 8.3;
  return {
    cache_n: turn.usage.cached,
    prompt_n: turn.usage.input - turn.usage.cached,
    prompt_ms: 8.7,
    prompt_per_token_ms: 8.7,
    prompt_per_second: 115.1,
    predicted_n: turn.usage.output,
    predicted_ms,
    predicted_per_token_ms: 8.3,
    predicted_per_second: 120.5,
  };
}

function chunks(turn: ChatTurn): Chunk[] {
  const envelope = (choices: unknown[], extra: Chunk = {}): Chunk => ({
    choices,
    created: turn.created,
    id: turn.id,
    model: turn.model,
    system_fingerprint: FINGERPRINT,
    object: "chat.completion.chunk",
    ...extra,
  });
  const delta = (d: unknown, finish_reason: string | null = null) => envelope([{ finish_reason, index: 0, delta: d }]);
  const out = [delta({ role: "assistant", content: null })];
  for (const reasoning_content of splitText(turn.reasoning)) out.push(delta({ reasoning_content }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content }));
  turn.calls.forEach((call, index) => {
    const [first = "", ...rest] = splitArgs(call.args);
    out.push(delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: first } }] }));
    for (const arguments_ of rest) out.push(delta({ tool_calls: [{ index, function: { arguments: arguments_ } }] }));
  });
  out.push(delta({}, turn.finish));
  if (turn.includeUsage) {
    const { prompt_tokens, completion_tokens, total_tokens } = basicUsage(turn.usage);
    out.push(envelope([], { usage: { completion_tokens, prompt_tokens, total_tokens }, timings: timings(turn) }));
  }
  return out;
}

export const llamacppChat: ChatDialect = {
  reasoning: true,
  completionId: () => `chatcmpl-${randomAlnum(32)}`,
  callId: () => randomAlnum(32),
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, {
      usage: basicUsage(turn.usage),
      message: turn.reasoning !== "" ? { reasoning_content: turn.reasoning } : {},
      extra: { system_fingerprint: FINGERPRINT, timings: timings(turn) },
    }),
  // llama-server reports a failure mid-stream as one error object in its own shape, then ends the body.
  streamError: (_turn, error) => [
    frame({ error: { code: typeof error.code === "number" ? error.code : 500, message: error.message, type: error.type ?? "server_error" } }),
  ],
};
