// The Responses API stream (POST /v1/responses, stream:true), built from a scripted turn. Event and field
// shapes follow the recorded streams in shared/fixtures/openai/responses: response.created/in_progress,
// output items (reasoning rs_, message msg_, function_call fc_ + call_) with their part/delta/done events,
// then response.completed with usage. Every event carries a sequence_number.
import { callId, encryptedContent, itemId } from "./ids.ts";
import type { IssuedItem } from "./items.ts";
import { argumentsOf, splitArgs, splitText, usageFor, type Usage } from "./reply.ts";
import type { TurnReply } from "./types.ts";

/** How a server shapes its Responses stream. OpenAI's: stored items, reasoning as summaries, argument deltas.
 *  Stateless servers (vendors/stateless.ts): `store: false` always, reasoning as `reasoning_text` content, and
 *  some (LM Studio) send a function call's arguments only in `function_call_arguments.done`. */
export type ResponsesStyle = { stateless: boolean; reasoning: "summary" | "text"; argumentDeltas: boolean };
export const OPENAI_RESPONSES: ResponsesStyle = { stateless: false, reasoning: "summary", argumentDeltas: true };

export type BuiltResponse = {
  id: string;
  /** Stream events in order (without the SSE framing). */
  events: Record<string, unknown>[];
  /** The completed response object: the non-streaming body, and what response.completed carries. */
  final: Record<string, unknown>;
  /** Output items in order, to be registered as issued. */
  issued: IssuedItem[];
};

function envelope(id: string, body: any, createdAt: number, status: string, output: unknown[], usage: unknown, style = OPENAI_RESPONSES) {
  return {
    id,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    completed_at: status === "completed" ? createdAt : null,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    model: body.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    safety_identifier: null,
    service_tier: status === "completed" ? "default" : "auto",
    store: style.stateless ? false : (body.store ?? true),
    temperature: body.temperature ?? 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: body.top_p ?? 1,
    truncation: "disabled",
    usage,
    user: null,
    metadata: body.metadata ?? {},
  };
}

export function responsesUsage(u: Usage) {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

export function buildResponsesTurn(reply: TurnReply, body: any, style = OPENAI_RESPONSES): BuiltResponse {
  const id = itemId("resp");
  const createdAt = Math.floor(Date.now() / 1000);
  const stored = !style.stateless && body.store !== false;
  const withEncrypted = !style.stateless && Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");
  const cut = reply.finish === "length";
  const events: Record<string, unknown>[] = [];
  const output: Record<string, unknown>[] = [];
  const issued: IssuedItem[] = [];
  const emit = (type: string, fields: Record<string, unknown>) =>
    events.push({ type, sequence_number: events.length, ...fields });

  emit("response.created", { response: envelope(id, body, createdAt, "in_progress", [], null, style) });
  emit("response.in_progress", { response: envelope(id, body, createdAt, "in_progress", [], null, style) });

  let reasoningId: string | undefined;
  if (reply.reasoning !== undefined && style.reasoning === "text") {
    // Stateless servers stream the reasoning itself as content (reasoning_text), not a summary.
    const rs = itemId("rs");
    reasoningId = rs;
    const output_index = output.length;
    const text = reply.reasoning;
    const at = { item_id: rs, output_index, content_index: 0 };
    emit("response.output_item.added", { output_index, item: { id: rs, type: "reasoning", status: "in_progress", summary: [], content: [] } });
    emit("response.content_part.added", { ...at, part: { type: "reasoning_text", text: "" } });
    for (const delta of splitText(text)) emit("response.reasoning_text.delta", { ...at, delta });
    emit("response.reasoning_text.done", { ...at, text });
    emit("response.content_part.done", { ...at, part: { type: "reasoning_text", text } });
    const item = { id: rs, type: "reasoning", status: "completed", summary: [], content: [{ type: "reasoning_text", text }] };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    issued.push({ id: rs, kind: "reasoning", stored });
  } else if (reply.reasoning !== undefined) {
    const rs = itemId("rs");
    reasoningId = rs;
    const output_index = output.length;
    const enc = withEncrypted ? { encrypted_content: encryptedContent(rs) } : {};
    const text = reply.reasoning;
    emit("response.output_item.added", { output_index, item: { id: rs, type: "reasoning", ...enc, summary: [] } });
    // An empty reasoning string models a reasoning item with no summary (what non-"detailed" requests get).
    if (text !== "") {
      const at = { item_id: rs, output_index, summary_index: 0 };
      emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
      for (const delta of splitText(text)) emit("response.reasoning_summary_text.delta", { ...at, delta });
      emit("response.reasoning_summary_text.done", { ...at, text });
      emit("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
    }
    const item = { id: rs, type: "reasoning", ...enc, summary: text === "" ? [] : [{ type: "summary_text", text }] };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    issued.push({ id: rs, kind: "reasoning", stored });
  }

  const wantsMessage = reply.text !== undefined || (reply.toolCalls ?? []).length === 0;
  if (wantsMessage) {
    const msg = itemId("msg");
    const output_index = output.length;
    const text = reply.text ?? "";
    const at = { item_id: msg, output_index, content_index: 0 };
    const part = (t: string) => ({ type: "output_text", annotations: [], logprobs: [], text: t });
    emit("response.output_item.added", {
      output_index,
      item: { id: msg, type: "message", status: "in_progress", content: [], role: "assistant" },
    });
    emit("response.content_part.added", { ...at, part: part("") });
    for (const delta of splitText(text)) emit("response.output_text.delta", { ...at, delta, logprobs: [] });
    emit("response.output_text.done", { ...at, text, logprobs: [] });
    emit("response.content_part.done", { ...at, part: part(text) });
    const item = { id: msg, type: "message", status: cut ? "incomplete" : "completed", content: [part(text)], role: "assistant" };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    issued.push({ id: msg, kind: "message", reasoningId, stored });
  }

  for (const call of reply.toolCalls ?? []) {
    const fc = itemId("fc");
    const call_id = call.id ?? callId();
    const output_index = output.length;
    const args = argumentsOf(call);
    const base = { id: fc, type: "function_call", arguments: "", call_id, name: call.name };
    emit("response.output_item.added", { output_index, item: { ...base, status: "in_progress" } });
    if (style.argumentDeltas)
      for (const delta of splitArgs(args)) emit("response.function_call_arguments.delta", { item_id: fc, output_index, delta });
    emit("response.function_call_arguments.done", { item_id: fc, output_index, arguments: args });
    const item = { ...base, status: "completed", arguments: args };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    issued.push({ id: fc, kind: "function_call", callId: call_id, reasoningId, stored });
  }

  const usage = responsesUsage(usageFor(reply, body, true));
  // Output cut off at the token limit: status "incomplete" (reason max_output_tokens), ended by response.incomplete.
  const final = envelope(id, body, createdAt, cut ? "incomplete" : "completed", output, usage, style);
  emit(cut ? "response.incomplete" : "response.completed", { response: final });
  return { id, events, final, issued };
}

export type ResponsesError = { message: string; code?: string | number | null; type?: string; param?: string | null };

/** A stream that fails after it started (HTTP 200): the opening events (and `text`, if any), then an `error`
 *  event in the nested shape and/or `response.failed` whose `response.error` is {code, message}. */
export function responsesFailure(text: string | undefined, body: any, error: ResponsesError, form: "both" | "error" | "failed" = "both", style = OPENAI_RESPONSES) {
  const events = responsesFaultPrefix(text, body, style);
  const created = events[0]!.response as Record<string, unknown>;
  const emit = (type: string, fields: Record<string, unknown>) => events.push({ type, sequence_number: events.length, ...fields });
  const code = error.code ?? null;
  if (form !== "failed")
    emit("error", { error: { type: error.type ?? "server_error", code, message: error.message, param: error.param ?? null } });
  if (form !== "error")
    emit("response.failed", { response: { ...created, status: "failed", error: { code, message: error.message }, usage: null } });
  return events;
}

/** The events a broken stream gets to send before its fault: the envelope events and, when the fault has
 *  text, the message item's opening events and text deltas (no done/completed events). */
export function responsesFaultPrefix(text: string | undefined, body: any, style = OPENAI_RESPONSES): Record<string, unknown>[] {
  const { events } = buildResponsesTurn({ text: text ?? "" }, body, style);
  let last = events.findIndex((e) => e.type === "response.in_progress");
  events.forEach((e, i) => {
    if (e.type === "response.output_text.delta") last = i;
  });
  return events.slice(0, last + 1);
}

/** SSE framing used by the Responses API: an `event:` line naming the type, then the JSON `data:` line. */
export function responsesFrame(event: Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Items a recorded (raw) Responses stream issues, so replayed multi-turn fixtures validate: the response id
 *  from response.created and each output_item.done item, with reasoning linked to the items after it. */
export function itemsInRawStream(raw: string, stored: boolean): { responseId?: string; issued: IssuedItem[] } {
  const issued: IssuedItem[] = [];
  let responseId: string | undefined;
  let reasoningId: string | undefined;
  for (const line of raw.split("\n")) {
    if (!line.startsWith("data:")) continue;
    let event: any;
    try {
      event = JSON.parse(line.slice(5).trim());
    } catch {
      continue;
    }
    if (event?.type === "response.created") responseId = event.response?.id;
    if (event?.type !== "response.output_item.done" || typeof event.item?.id !== "string") continue;
    const item = event.item;
    if (item.type === "reasoning") {
      reasoningId = item.id;
      issued.push({ id: item.id, kind: "reasoning", stored });
    } else if (item.type === "message") {
      issued.push({ id: item.id, kind: "message", reasoningId, stored });
    } else if (item.type === "function_call") {
      issued.push({ id: item.id, kind: "function_call", callId: item.call_id, reasoningId, stored });
    }
  }
  return { responseId, issued };
}
