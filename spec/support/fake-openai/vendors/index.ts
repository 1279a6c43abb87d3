// What each vendor mode is made of: its chat dialect, how it shapes (and remembers) Responses, whose
// context-length wording it uses, and which history it insists on getting back. vendors/README.md says why.
import { openaiChat } from "../chat-wire.ts";
import { OPENAI_RESPONSES, type ResponsesStyle } from "../responses-wire.ts";
import type { OverflowStyle, VendorMode } from "../types.ts";
import { azureChat } from "./azure.ts";
import type { ChatDialect } from "./chat-kit.ts";
import { deepseekChat } from "./deepseek.ts";
import type { EchoRule } from "./echo-rules.ts";
import { groqChat } from "./groq.ts";
import { llamacppChat } from "./llamacpp.ts";
import { mistralChat } from "./mistral.ts";
import { ollamaChat } from "./ollama.ts";
import { openrouterChat } from "./openrouter.ts";
import { vllmChat } from "./vllm.ts";
import { xaiChat } from "./xai.ts";

export type VendorSpec = { chat: ChatDialect; responses: ResponsesStyle; overflow: OverflowStyle; echo?: EchoRule };

/** Stateless Responses servers: nothing stored, reasoning as text; LM Studio-style ones skip argument deltas. */
const STATELESS: ResponsesStyle = { stateless: true, reasoning: "text", argumentDeltas: true };
const STATELESS_NO_DELTAS: ResponsesStyle = { ...STATELESS, argumentDeltas: false };

export const VENDORS: Record<VendorMode, VendorSpec> = {
  openai: { chat: openaiChat, responses: OPENAI_RESPONSES, overflow: "openai" },
  azure: { chat: azureChat, responses: OPENAI_RESPONSES, overflow: "openai" },
  xai: { chat: xaiChat, responses: OPENAI_RESPONSES, overflow: "openai" },
  mistral: { chat: mistralChat, responses: OPENAI_RESPONSES, overflow: "openai" },
  groq: { chat: groqChat, responses: OPENAI_RESPONSES, overflow: "groq" },
  openrouter: { chat: openrouterChat, responses: OPENAI_RESPONSES, overflow: "openrouter", echo: "openrouter" },
  deepseek: { chat: deepseekChat, responses: STATELESS, overflow: "openai", echo: "deepseek" },
  vllm: { chat: vllmChat, responses: STATELESS, overflow: "vllm" },
  // llama-server runs on llama.cpp; so do ollama's and LM Studio's default engines (their overflow is inferred).
  llamacpp: { chat: llamacppChat, responses: STATELESS, overflow: "llamacpp" },
  ollama: { chat: ollamaChat, responses: STATELESS, overflow: "llamacpp" },
  lmstudio: { chat: openaiChat, responses: STATELESS_NO_DELTAS, overflow: "llamacpp" },
  stateless: { chat: openaiChat, responses: STATELESS_NO_DELTAS, overflow: "openai" },
};

/** The plain fake (no vendor): OpenAI's wires, exactly as before vendor modes existed. */
export const PLAIN: VendorSpec = VENDORS.openai;
