// Public types of the fake OpenAI server. Other specs code against these: change them only additively.

/** One tool call the fake model makes. `input` is JSON-encoded unless it is a string, which is sent verbatim
 *  (so a test can send malformed JSON arguments). `id` is the call id (`call_…`); generated when absent. */
export type ScriptedToolCall = { name: string; input: unknown | string; id?: string };

/** A normal model turn. Streams reasoning (Responses wire only), then text, then tool calls. */
export type TurnReply = {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** `cached`: how many of the input tokens were served from the provider's prompt cache. */
  usage?: { input: number; output: number; cached?: number };
  /** Pause between stream events, for slow turns. */
  delayMs?: number;
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

export type Reply = TurnReply | HttpErrorReply | FaultReply | RawReply;

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
  /** Scripted replies not consumed yet. */
  pending(): number;
  /** From now on, references to items issued before this call get the real 404 "Item with id '…' not found.". */
  forgetItems(): void;
  close(): Promise<void>;
};

export type StartOptions = { replies?: Reply[] };
