// Public types of the fake OpenAI server. Other specs code against these: change them only additively.

/** One tool call the fake model makes. `input` is JSON-encoded unless it is a string, which is sent verbatim
 *  (so a test can send malformed JSON arguments). `id` is the call id (`call_…`); generated when absent. */
export type ScriptedToolCall = { name: string; input: unknown | string; id?: string };

/** A normal model turn. Streams reasoning (Responses wire; on chat only in vendor modes whose servers stream it),
 *  then text, then tool calls. */
export type TurnReply = {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** `cached`: how many of the input tokens were served from the provider's prompt cache. */
  usage?: { input: number; output: number; cached?: number };
  /** Pause between stream events, for slow turns. */
  delayMs?: number;
  /** "length": the output was cut off at the token limit (chat finish_reason "length"; Responses status
   *  "incomplete" with reason max_output_tokens). Default: a normal finish. */
  finish?: "length";
};

/** An HTTP error reply. `body` defaults to the OpenAI-shaped body for that status; a string body is sent verbatim. */
export type HttpErrorReply = { status: number; body?: unknown; headers?: Record<string, string> };

/** A broken connection:
 *  - reset: destroy the socket mid-stream after streaming `text`;
 *  - hang: send headers (and `text`, if any) then nothing until the client gives up or the server closes;
 *  - truncate: stream `text`, then end the body without response.completed / finish_reason / [DONE];
 *  - malformed: stream `text`, then a garbage SSE data line, then end the body. */
export type FaultReply = { fault: "reset" | "hang" | "truncate" | "malformed"; text?: string };

/** A recorded body replayed verbatim (fixture replay). Items it issues (output_item.done events) are registered
 *  so follow-up requests that reference them validate. Status defaults to 200, contentType to text/event-stream. */
export type RawReply = { raw: string; contentType?: string; status?: number };

/** An error inside an HTTP 200 stream, after `text` (if any) was streamed. Its shape follows the server's vendor:
 *  chat: OpenAI `data: {"error":…}`, OpenRouter a chunk with a top-level `error: {code, message, metadata: {raw}}`,
 *  Groq an `event: error` frame; Responses: an `error` event and/or `response.failed` (`form`, default both). */
export type StreamErrorReply = {
  streamError: {
    message: string;
    code?: string | number;
    type?: string;
    /** OpenRouter: the upstream's own words, sent as `error.metadata.raw`. */
    raw?: string;
    /** Responses wire only: which events carry the error. */
    form?: "both" | "error" | "failed";
  };
  text?: string;
};

/** Which request a reply answers, for conversations that run at once (subagents): each substring given must
 *  appear in the request's system prompt (`instructions`) or its first user message (`firstUser`). */
export type RequestMatch = { instructions?: string; firstUser?: string };

/** How a reply finds its request. Without `when`, it answers the next request, as before; with it, the next
 *  request that matches takes the first queued reply that matches it. `together`: the answer is held until
 *  this many held requests (this one included) wait at once, proof that they were in flight together; a
 *  reply still alone after `holdTimeoutMs` is sent anyway and the wait is recorded in `errors`. */
export type Routing = { when?: RequestMatch; together?: number };

export type Reply = (TurnReply | HttpErrorReply | FaultReply | RawReply | StreamErrorReply) & Routing;

/** The real server a fake imitates: its stream quirks, the history it insists on, its error wordings and
 *  its model-metadata endpoints. See vendors/README.md. Absent: the plain OpenAI fake (unchanged behaviour). */
export type VendorMode =
  | "openai"
  | "azure"
  | "mistral"
  | "deepseek"
  | "llamacpp"
  | "vllm"
  | "lmstudio"
  | "ollama"
  | "openrouter"
  | "groq"
  | "xai"
  | "stateless";

/** Whose context-length rejection a request over the window gets. Defaults to the vendor's own. */
export type OverflowStyle = "openai" | "vllm" | "llamacpp" | "openrouter" | "groq";

/** A model the fake serves. `contextWindow` is what it runs with (enforced, and reported by the vendor's
 *  metadata endpoint); `maxContext` is the model's native maximum where a vendor reports both (ollama's
 *  model_info vs num_ctx, LM Studio's max vs loaded, llama.cpp's n_ctx_train vs n_ctx); default contextWindow.
 *  `images`: false refuses image parts with OpenAI's 400; the metadata reports it (OpenRouter `input_modalities`,
 *  ollama `capabilities`, LM Studio `type` vlm/llm, llama.cpp `modalities.vision`). */
export type ModelLimits = { contextWindow: number; maxContext?: number; maxOutputTokens?: number; images?: boolean };

/** Chat-wire quirks of gateways, layered on any vendor: tool-call `index` counted from 1 (Bedrock-backed
 *  gateways), continuation deltas repeating `id: ""` and `function.name: ""` (Alibaba DashScope). */
export type ChatQuirks = { toolIndexFrom?: number; emptyContinuationIdentity?: boolean };

/** A request the fake rejected because it did not fit the model's window (expected by the test, so not in `errors`). */
export type Overflow = {
  wire: "responses" | "chat";
  model: string;
  /** The fake's estimate of the input: ceil(chars / 4) of messages|input + instructions + tools, as JSON. */
  estimatedInput: number;
  /** max_tokens / max_completion_tokens / max_output_tokens, 0 when absent. */
  requestedOutput: number;
  contextWindow: number;
  style: OverflowStyle;
  /** HTTP status sent (200 for the in-stream form). */
  status: number;
  message: string;
};

export type CapturedRequest = {
  /** "other" for requests to paths the fake does not serve (those are rejected with 404). */
  wire: "responses" | "chat" | "other";
  method: string;
  path: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON (undefined when empty). */
  body: any;
};

export type FakeServer = {
  /** Base URL for @ai-sdk/openai, e.g. "http://127.0.0.1:43125/v1". */
  url: string;
  /** Queue replies; each answers exactly one accepted request, in order, whatever the wire. */
  push(...replies: Reply[]): void;
  /** Every request received, including rejected ones. */
  requests: CapturedRequest[];
  /** Every protocol violation the server rejected, human-readable. */
  errors: string[];
  /** Every request rejected for not fitting its model's context window (not protocol errors). */
  overflows: Overflow[];
  /** The vendor mode this server imitates, if any. */
  vendor?: VendorMode;
  /** Scripted replies not consumed yet. */
  pending(): number;
  /** From now on, references to items issued before this call get the real 404 "Item with id '…' not found.". */
  forgetItems(): void;
  close(): Promise<void>;
};

export type StartOptions = {
  replies?: Reply[];
  /** Imitate this server. Absent: the plain OpenAI fake, where any path but the two wires is a protocol error. */
  vendor?: VendorMode;
  /** Models with a context window: enforced on both wires and reported by the vendor's metadata endpoints. */
  models?: Record<string, ModelLimits>;
  /** Override the vendor's context-length error wording. */
  overflow?: OverflowStyle;
  /** Gateway quirks on top of the vendor's chat stream. */
  chatQuirks?: ChatQuirks;
  /** How long a reply with `together` waits for the others (default 10 s). */
  holdTimeoutMs?: number;
};
