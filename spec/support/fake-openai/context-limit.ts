// Context windows (issue 14): a request whose estimated input, plus the output it asks room for, does not fit its
// model's window is refused the way that vendor refuses it. Expected by the test that set the window, so these
// go to `server.overflows`, not `errors`, and consume no scripted reply (the client's retry gets it).
//
// The estimate is deliberately simple and documented: ceil(chars / 4) over the JSON of the request's `messages`
// (chat) or `input` (Responses), plus `instructions`, plus the JSON of `tools` when there are any.
// The output asked for is max_tokens / max_completion_tokens / max_output_tokens (0 when absent).
import { promptText } from "./prompt-cache.ts";
import { responsesFailure, responsesFrame, type ResponsesStyle } from "./responses-wire.ts";
import type { ModelLimits, Overflow, OverflowStyle } from "./types.ts";

export function estimateInputTokens(body: any): number {
  return Math.ceil(promptText(body).length / 4);
}

export function requestedOutput(body: any): number {
  const asked = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
  return typeof asked === "number" && asked > 0 ? asked : 0;
}

/** What the client gets: a JSON error, or (OpenAI Responses, streaming) a 200 stream that fails. */
export type OverflowAnswer = { overflow: Overflow; status: number; json?: unknown; frames?: string[] };

export function checkContextWindow(
  wire: "responses" | "chat",
  body: any,
  models: Record<string, ModelLimits> | undefined,
  style: OverflowStyle,
  responsesStyle: ResponsesStyle,
): OverflowAnswer | undefined {
  const limits = models?.[body.model];
  if (!limits) return undefined;
  const input = estimateInputTokens(body);
  const output = requestedOutput(body);
  const window = limits.contextWindow;
  // llama-server only compares the prompt with n_ctx (generation simply stops at the window); the others
  // refuse when prompt + requested output do not fit.
  const over = style === "llamacpp" ? input >= window : input + output > window;
  if (!over) return undefined;
  const said = wording(style, wire, body.stream === true, input, output, window);
  const overflow: Overflow = { wire, model: body.model, estimatedInput: input, requestedOutput: output, contextWindow: window, style, status: said.status, message: said.message };
  if (said.inStream) {
    const events = responsesFailure(undefined, body, said.inStream, "both", responsesStyle);
    return { overflow, status: 200, frames: events.map(responsesFrame) };
  }
  return { overflow, status: said.status, json: said.json };
}

type Wording = { status: number; message: string; json?: unknown; inStream?: { message: string; code: string; type: string; param: string } };

function wording(style: OverflowStyle, wire: "responses" | "chat", stream: boolean, input: number, output: number, window: number): Wording {
  switch (style) {
    case "openai": {
      // Responses: the window is not named. Streaming, it arrives inside a 200 (shared fixtures
      // openai/errors/200-stream-error-context-length-exceeded.json); otherwise a 400 with param "input".
      if (wire === "responses") {
        const message = "Your input exceeds the context window of this model. Please adjust your input and try again.";
        const error = { message, type: "invalid_request_error", param: "input", code: "context_length_exceeded" };
        return stream ? { status: 200, message, inStream: error } : { status: 400, message, json: { error } };
      }
      // Chat: openai/errors/400-context-length-exceeded.json; with no completion asked for, the messages-only form.
      const message =
        output > 0
          ? `This model's maximum context length is ${window} tokens. However, you requested ${input + output} tokens (${input} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`
          : `This model's maximum context length is ${window} tokens. However, your messages resulted in ${input} tokens. Please reduce the length of the messages.`;
      return { status: 400, message, json: { error: { message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } } };
    }
    case "vllm": {
      // vLLM's two checks: the output it was asked for does not fit beside the prompt (real-streams/vllm
      // recording), or the prompt alone does not fit.
      if (output > 0 && input < window) {
        const message = `'max_tokens' or 'max_completion_tokens' is too large: ${output}. This model's maximum context length is ${window} tokens and your request has ${input} input tokens (${output} > ${window} - ${input}). None`;
        return { status: 400, message, json: { error: { message, type: "BadRequestError", param: null, code: 400 } } };
      }
      const message = `This model's maximum context length is ${window} tokens. However, you requested ${output} output tokens and your prompt contains at least ${input} input tokens, for a total of at least ${input + output} tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=${input})`;
      return { status: 400, message, json: { error: { message, type: "BadRequestError", param: "input_tokens", code: 400 } } };
    }
    case "llamacpp": {
      const message = `request (${input} tokens) exceeds the available context size (${window} tokens), try increasing it`;
      return { status: 400, message, json: { error: { code: 400, message, type: "exceed_context_size_error", n_prompt_tokens: input, n_ctx: window } } };
    }
    case "openrouter": {
      const message = `This endpoint's maximum context length is ${window} tokens. However, you requested about ${input + output} tokens (${input} of text input, ${output} in the output). Please reduce the length of either one, or use the context-compression plugin to compress your prompt automatically.`;
      return { status: 400, message, json: { error: { message, code: 400, metadata: { provider_name: null } } } };
    }
    case "groq": {
      // Names no limit at all: the client learns only that it must shrink the request.
      const message = "Please reduce the length of the messages or completion.";
      return { status: 400, message, json: { error: { message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } } };
    }
  }
}
