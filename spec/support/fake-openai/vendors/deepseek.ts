// DeepSeek's chat wire in thinking mode (api.deepseek.com). Reasoning streams as `delta.reasoning_content`
// (content null meanwhile), call ids look like `call_00_<24>`, and the finish chunk carries the usage, with
// DeepSeek's `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens` (the other chunks say `usage: null`).
// Its echo rule (a tool step's reasoning_content must come back) lives in echo-rules.ts. Modelled on
// real-streams/deepseek/reasoner-tool.sse.
import { randomUUID } from "node:crypto";
import { uniqueToken } from "../ids.ts";
import { splitArgs, splitText, type Usage } from "../reply.ts";
import { completionBody, DONE, frame, openaiStreamError, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";

export const deepseekUsage = (u: Usage) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output,
  total_tokens: u.input + u.output,
  prompt_tokens_details: { cached_tokens: u.cached },
  completion_tokens_details: { reasoning_tokens: u.reasoning },
  prompt_cache_hit_tokens: u.cached,
  prompt_cache_miss_tokens: u.input - u.cached,
});

function chunks(turn: ChatTurn): Chunk[] {
  // The finish chunk always carries usage; with include_usage the others say `usage: null`.
  const chunk = (delta: unknown, finish_reason: string | null = null, usage?: unknown): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    system_fingerprint: "fp_fake0000de_prod0820_fp8_kvcache",
    choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    ...(usage !== undefined ? { usage } : turn.includeUsage ? { usage: null } : {}),
  });
  const thinking = turn.reasoning !== "";
  const out = [chunk(thinking ? { role: "assistant", content: null, reasoning_content: "" } : { role: "assistant", content: "" })];
  for (const reasoning_content of splitText(turn.reasoning)) out.push(chunk({ content: null, reasoning_content }));
  for (const content of splitText(turn.text ?? "")) out.push(chunk(thinking ? { content, reasoning_content: null } : { content }));
  turn.calls.forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const arguments_ of splitArgs(call.args)) out.push(chunk({ tool_calls: [{ index, function: { arguments: arguments_ } }] }));
  });
  out.push(chunk(thinking ? { content: "", reasoning_content: null } : { content: "" }, turn.finish, deepseekUsage(turn.usage)));
  return out;
}

export const deepseekChat: ChatDialect = {
  reasoning: true,
  completionId: () => randomUUID(),
  callId: (_name, index) => `call_${String(index).padStart(2, "0")}_${uniqueToken(24)}`,
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) =>
    completionBody(turn, {
      usage: deepseekUsage(turn.usage),
      message: turn.reasoning !== "" ? { reasoning_content: turn.reasoning } : {},
      extra: { system_fingerprint: "fp_fake0000de_prod0820_fp8_kvcache" },
    }),
  streamError: (_turn, error) => openaiStreamError(error),
};
