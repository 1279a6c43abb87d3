// OpenAI error bodies, shaped like the recorded ones in shared/fixtures/openai/errors (see ERRORS.md):
// {"error":{message,type,param,code}}, pretty-printed with two-space indentation.

export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

export function errorBody(
  message: string,
  type = "invalid_request_error",
  param: string | null = null,
  code: string | null = null,
): OpenAIErrorBody {
  return { error: { message, type, param, code } };
}

/** A request the fake refuses. `note` is what goes into `server.errors` (more context than the body).
 *  The body is OpenAI-shaped unless a vendor mode answers in its own shape. */
export class Rejection {
  constructor(
    readonly status: number,
    readonly body: OpenAIErrorBody | Record<string, unknown>,
    readonly note: string,
  ) {}
}

const inputError = (status: number, message: string, note: string) =>
  new Rejection(status, errorBody(message, "invalid_request_error", "input", null), note);

// --- Responses history errors (real texts) ---

export const noToolCallFound = (callId: string, at: string) =>
  inputError(
    400,
    `No tool call found for function call output with call_id ${callId}.`,
    `responses: ${at} function_call_output ${callId} has no earlier function_call with that call_id`,
  );

export const noToolOutputFound = (callId: string, at: string) =>
  inputError(
    400,
    `No tool output found for function call ${callId}.`,
    `responses: ${at} function_call ${callId} has no function_call_output after it`,
  );

export type NotFoundReason = "never-issued" | "forgotten" | "not-stored";

export function itemNotFound(id: string, at: string, reason: NotFoundReason) {
  const message =
    reason === "not-stored"
      ? `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`
      : `Item with id '${id}' not found.`;
  const why = {
    "never-issued": "this server never issued it",
    forgotten: "it was issued before forgetItems()",
    "not-stored": "it was produced by a request with store:false and sent without its content",
  }[reason];
  return inputError(404, message, `responses: ${at} refers to item ${id}, but ${why}`);
}

export const missingReasoning = (id: string, type: "message" | "function_call", reasoningId: string, at: string) =>
  inputError(
    400,
    `Item '${id}' of type '${type}' was provided without its required 'reasoning' item: '${reasoningId}'.`,
    `responses: ${at} ${type} ${id} was produced after reasoning ${reasoningId}, which is not earlier in the input`,
  );

export const reasoningWithoutFollower = (id: string, at: string) =>
  inputError(
    400,
    `Item '${id}' of type 'reasoning' was provided without its required following item.`,
    `responses: ${at} reasoning ${id} is not followed by an output item (message or function_call)`,
  );

export const previousResponseNotFound = (id: string) =>
  new Rejection(
    404,
    errorBody(`Previous response with id '${id}' not found.`, "invalid_request_error", "previous_response_id", null),
    `responses: previous_response_id ${id} was never issued by this server (or was forgotten / not stored)`,
  );

// --- Chat history errors (real texts, including OpenAI's "preceeding" spelling) ---

export const chatOrphanToolMessage = (index: number, toolCallId: string) =>
  new Rejection(
    400,
    errorBody(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      "invalid_request_error",
      `messages.[${index}].role`,
      null,
    ),
    `chat: messages[${index}] role:tool answers ${toolCallId}, which no preceding assistant tool_calls left open`,
  );

export const chatUnansweredToolCalls = (index: number, ids: string[]) =>
  new Rejection(
    400,
    errorBody(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
      "invalid_request_error",
      `messages.[${index}].role`,
      null,
    ),
    `chat: messages[${index}] assistant tool_calls ${ids.join(", ")} were not answered by tool messages`,
  );

// --- Generic request errors ---

export const badJson = (path: string) =>
  new Rejection(
    400,
    errorBody(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    ),
    `${path}: body is not valid JSON`,
  );

export const missingModel = (path: string) =>
  new Rejection(400, errorBody("you must provide a model parameter"), `${path}: request has no model`);

export const missingField = (path: string, field: string) =>
  new Rejection(
    400,
    errorBody(`Missing required parameter: '${field}'.`, "invalid_request_error", field, "missing_required_parameter"),
    `${path}: request has no ${field}`,
  );

export const unknownRoute = (method: string, path: string) =>
  new Rejection(
    404,
    errorBody(`Invalid URL (${method} ${path})`, "invalid_request_error", null, null),
    `unexpected endpoint ${method} ${path} (fake serves POST /v1/responses and POST /v1/chat/completions)`,
  );

export const noReplyLeft = (n: number) =>
  new Rejection(
    500,
    errorBody(`fake server: unexpected request #${n} (no scripted reply left)`, "server_error", null, null),
    `unexpected request #${n} (no scripted reply left)`,
  );

export const noReplyMatches = (n: number, queued: number) =>
  new Rejection(
    500,
    errorBody(`fake server: unexpected request #${n} (none of the ${queued} scripted replies matches it)`, "server_error", null, null),
    `unexpected request #${n} (none of the ${queued} scripted replies left matches it)`,
  );

/** Default body for a scripted HTTP error reply with no body, by status. */
export function defaultErrorBody(status: number, model: string): OpenAIErrorBody {
  switch (status) {
    case 400:
      return errorBody("Invalid request.");
    case 401:
      return errorBody(
        "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        null,
        "invalid_api_key",
      );
    case 403:
      return errorBody("You are not allowed to sample from this model", "invalid_request_error", null, null);
    case 404:
      return errorBody(
        `The model \`${model}\` does not exist or you do not have access to it.`,
        "invalid_request_error",
        null,
        "model_not_found",
      );
    case 429:
      return errorBody(
        `Rate limit reached for ${model} in organization org-fake on tokens per min (TPM): Limit 200000, Used 162960, Requested 42288. Please try again in 1.574s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        "tokens",
        null,
        "rate_limit_exceeded",
      );
    case 503:
      return errorBody("The engine is currently overloaded, please try again later.", "server_error", null, null);
    default:
      return status >= 500
        ? errorBody("The server had an error while processing your request. Sorry about that!", "server_error")
        : errorBody(`Request failed with status ${status}.`);
  }
}

export const duplicateItem = (id: string, at: string) =>
  inputError(
    400,
    `Duplicate item found with id ${id}. Remove duplicate items from your input and try again.`,
    `responses: ${at} repeats item ${id}, which is already in the input (or in the previous_response_id chain)`,
  );
