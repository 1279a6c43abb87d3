// Azure OpenAI's chat wire: OpenAI's stream, plus content filtering. The first chunk has `choices: []` and
// `prompt_filter_results` (and empty id/model/object), every choice carries `content_filter_results`, chunks
// carry an `obfuscation` pad, and keys come alphabetically sorted. Modelled on real-streams/azure.
import { chatUsage, openaiChat, openaiChunks } from "../chat-wire.ts";
import { randomAlnum } from "../ids.ts";
import { DONE, frame, type ChatDialect, type Chunk } from "./chat-kit.ts";

const SAFE = { filtered: false, severity: "safe" };
/** What Azure's default filter reports on clean text. */
export const CONTENT_FILTERS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const PROMPT_FILTERS = [{ prompt_index: 0, content_filter_results: { ...CONTENT_FILTERS, jailbreak: { detected: false, filtered: false } } }];

const sorted = (o: Chunk): Chunk => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** OpenAI's chunk, Azure-dressed: filter results on choices (full ones once text flows), a pad, sorted keys. */
function dress(chunk: Chunk): Chunk {
  const choices = (chunk.choices as Chunk[]).map((c) => {
    const text = typeof (c.delta as Chunk)?.content === "string" && (c.delta as Chunk).content !== "";
    return sorted({ ...c, content_filter_results: text ? CONTENT_FILTERS : {} });
  });
  const extra = choices.length === 0 ? { latency_checkpoint: { total_duration_ms: 120 } } : {};
  return sorted({ ...chunk, choices, system_fingerprint: null, obfuscation: randomAlnum(1 + Math.floor(Math.random() * 12)), ...extra });
}

export const azureChat: ChatDialect = {
  ...openaiChat,
  stream: (turn) => [
    frame(sorted({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: PROMPT_FILTERS })),
    ...openaiChunks(turn).map((c) => frame(dress(c))),
    DONE,
  ],
  completion: (turn) => {
    const body = openaiChat.completion(turn);
    const choices = (body.choices as Chunk[]).map((c) => ({ ...c, content_filter_results: CONTENT_FILTERS }));
    return { ...body, choices, usage: chatUsage(turn.usage), prompt_filter_results: PROMPT_FILTERS };
  },
};
