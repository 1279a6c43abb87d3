// vLLM's chat wire (also what many hosted open-model APIs run, e.g. the Crusoe recording). Reasoning streams as
// `delta.reasoning_content`; the first tool-call delta names the call but has no `arguments` at all; ids are
// `chatcmpl-tool-<hex>`; choices carry `token_ids: null`, the first chunk `prompt_token_ids`/`prompt_text`, the
// finish `stop_reason`; usage comes in a `choices: []` chunk. Modelled on real-streams/crusoe (vLLM 0.24).
import { randomHex } from "../ids.ts";
import { splitArgs, splitText, type Usage } from "../reply.ts";
import { completionBody, DONE, frame, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";

const usage = (u: Usage) => ({
  prompt_tokens: u.input,
  total_tokens: u.input + u.output,
  completion_tokens: u.output,
  prompt_tokens_details: { cached_tokens: u.cached },
});

function chunks(turn: ChatTurn): Chunk[] {
  const envelope = (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    choices,
    ...extra,
  });
  const delta = (d: unknown, finish_reason: string | null = null, extra: Chunk = { token_ids: null }) =>
    envelope([{ index: 0, delta: d, logprobs: null, finish_reason, ...extra }]);
  const out = [envelope([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }], { prompt_token_ids: null, prompt_text: null })];
  for (const reasoning_content of splitText(turn.reasoning)) out.push(delta({ reasoning_content }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content }));
  turn.calls.forEach((call, index) => {
    out.push(delta({ tool_calls: [{ id: call.id, type: "function", index, function: { name: call.name } }] }));
    for (const arguments_ of splitArgs(call.args)) out.push(delta({ tool_calls: [{ index, function: { arguments: arguments_ } }] }));
  });
  out.push(delta({}, turn.finish, { stop_reason: null, token_ids: null }));
  if (turn.includeUsage) out.push(envelope([], { usage: usage(turn.usage), system_fingerprint: "vllm-0.24.0-fake" }));
  return out;
}

export const vllmChat: ChatDialect = {
  reasoning: true,
  completionId: () => `chatcmpl-${randomHex(16)}`,
  callId: () => `chatcmpl-tool-${randomHex(32)}`,
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, {
      usage: usage(turn.usage),
      message: turn.reasoning !== "" ? { reasoning_content: turn.reasoning } : {},
    }),
  // vLLM's streaming error: its usual error object (numeric code), as one data line.
  streamError: (_turn, error) => [
    frame({ error: { message: error.message, type: error.type ?? "InternalServerError", param: null, code: typeof error.code === "number" ? error.code : 500 } }),
  ],
};
