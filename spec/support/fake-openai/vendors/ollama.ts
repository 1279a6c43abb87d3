// ollama's OpenAI-compatible chat wire (/v1/chat/completions). Every delta repeats role "assistant" and content
// "", reasoning streams as `delta.reasoning`, each tool call arrives complete in one chunk (ids `call_` + 8
// lowercase), choices have no logprobs, and the body ends without `data: [DONE]`. Modelled on real-streams/ollama.
import { uniqueToken } from "../ids.ts";
import { basicUsage, completionBody, frame, openaiStreamError, type ChatDialect, type ChatTurn, type Chunk } from "./chat-kit.ts";
import { splitText } from "../reply.ts";

let counter = 0;
const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";

function chunks(turn: ChatTurn): Chunk[] {
  const envelope = (choices: unknown[], extra: Chunk = {}): Chunk => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    system_fingerprint: "fp_ollama",
    choices,
    ...extra,
  });
  const delta = (d: Chunk, finish_reason: string | null = null) =>
    envelope([{ index: 0, delta: { role: "assistant", content: "", ...d }, finish_reason }]);
  const out: Chunk[] = [];
  for (const reasoning of splitText(turn.reasoning)) out.push(delta({ reasoning }));
  for (const content of splitText(turn.text ?? "")) out.push(delta({ content }));
  turn.calls.forEach((call, index) =>
    out.push(delta({ tool_calls: [{ id: call.id, index, type: "function", function: { name: call.name, arguments: call.args } }] })),
  );
  out.push(delta({}, turn.finish));
  if (turn.includeUsage) out.push(envelope([], { usage: basicUsage(turn.usage) }));
  return out;
}

export const ollamaChat: ChatDialect = {
  reasoning: true,
  completionId: () => `chatcmpl-${++counter}`,
  callId: () => `call_${uniqueToken(8, LOWER)}`,
  stream: (turn) => chunks(turn).map(frame),
  completion: (turn) =>
    completionBody(turn, {
      usage: basicUsage(turn.usage),
      message: turn.reasoning !== "" ? { reasoning: turn.reasoning } : {},
      extra: { system_fingerprint: "fp_ollama" },
    }),
  streamError: (_turn, error) => openaiStreamError({ ...error, type: error.type ?? "api_error" }),
};
