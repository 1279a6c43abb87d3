// Mistral's chat wire (api.mistral.ai). Its tool calls carry no `index` and no `type`, ids are 9 alphanumerics,
// and the whole call list arrives in the last chunk together with finish_reason and usage (usage is sent
// whether or not stream_options asked for it). Modelled on real-streams/mistral.
import { randomHex, uniqueToken } from "../ids.ts";
import { splitText } from "../reply.ts";
import { completionBody, DONE, frame, openaiStreamError, type ChatDialect, type ChatTurn } from "./chat-kit.ts";

// Mistral orders its usage keys this way.
const usage = (t: ChatTurn) => ({ prompt_tokens: t.usage.input, total_tokens: t.usage.input + t.usage.output, completion_tokens: t.usage.output });

function chunks(turn: ChatTurn) {
  const chunk = (delta: unknown, finish_reason: string | null = null, extra = {}) => ({
    id: turn.id,
    object: "chat.completion.chunk",
    created: turn.created,
    model: turn.model,
    choices: [{ index: 0, delta, finish_reason, logprobs: null }],
    ...extra,
  });
  const out = [chunk({ role: "assistant", content: "" })];
  for (const content of splitText(turn.text ?? "")) out.push(chunk({ content }));
  const last =
    turn.calls.length > 0
      ? { content: null, tool_calls: turn.calls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.args } })) }
      : { content: "" };
  out.push(chunk(last, turn.finish, { usage: usage(turn) }));
  return out;
}

export const mistralChat: ChatDialect = {
  reasoning: false,
  completionId: () => randomHex(32),
  callId: () => uniqueToken(9),
  stream: (turn) => [...chunks(turn).map(frame), DONE],
  completion: (turn) => completionBody(turn, { usage: usage(turn) }),
  streamError: (_turn, error) => openaiStreamError(error),
};
