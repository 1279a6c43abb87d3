import type { AssistantModelMessage, ModelMessage, ToolResultPart } from "ai";
import { isImageContent } from "./sdk-tools.ts";
import { MAX_SESSION_NESTING, nestedDeeperThan } from "../fs/nesting.ts";
import { REASONING_DETAILS_KEY } from "../provider/reasoning-details.ts";

/** Room for the record, the message and the part around a tool call's arguments within MAX_SESSION_NESTING. */
const MAX_INPUT_NESTING = MAX_SESSION_NESTING - 16;
const DEEP_INPUT_NOTE = `[arguments nested more than ${MAX_INPUT_NESTING} levels deep; not kept]`;

type Metadata = Record<string, Record<string, unknown>> | undefined;

/** What one step produced, as the SDK's single model call reports it, with the tool results after it. */
type TextContent = { type: "text" | "reasoning"; text: string; providerMetadata?: Metadata };

export type StepContent =
  | TextContent
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; invalid?: boolean; providerExecuted?: boolean; providerMetadata?: Metadata }
  | { type: "tool-result"; toolCallId: string; toolName: string; input: unknown; output: unknown; providerExecuted?: boolean; providerMetadata?: Metadata }
  | { type: "tool-error"; toolCallId: string; toolName: string; input: unknown; error: unknown; providerExecuted?: boolean; providerMetadata?: Metadata }
  | { type: string; providerMetadata?: Metadata };

/**
 * A step's messages for the history: the assistant's (its text, reasoning and calls, each with
 * the provider's metadata as options, so item ids and encrypted reasoning go back as they came),
 * then one tool message with the results in the order of the calls. The same messages the SDK's
 * `streamText` gives a step (its `toResponseMessages`), for the kinds of content shiro's tools
 * and providers produce: text, reasoning, function calls and their results.
 */
export function responseMessages(content: readonly StepContent[]): ModelMessage[] {
  const said: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = [];
  const order = new Map<string, number>();
  for (const part of content) {
    switch (part.type) {
      case "text":
      case "reasoning": {
        const p = part as TextContent;
        if (p.type === "text" && p.text.length === 0 && p.providerMetadata == null) break;
        said.push({ type: p.type, text: p.text, providerOptions: p.providerMetadata as never });
        break;
      }
      case "tool-call": {
        const p = part as Extract<StepContent, { type: "tool-call" }>;
        if (!order.has(p.toolCallId)) order.set(p.toolCallId, order.size);
        said.push({
          type: "tool-call",
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          input: p.invalid && (typeof p.input !== "object" || p.input === null) ? {} : p.input,
          providerExecuted: p.providerExecuted,
          providerOptions: p.providerMetadata as never,
        });
        break;
      }
      default:
        break;
    }
  }
  const results: ToolResultPart[] = [];
  for (const part of content) {
    if (part.type !== "tool-result" && part.type !== "tool-error") continue;
    const p = part as Extract<StepContent, { type: "tool-result" | "tool-error" }>;
    if (p.providerExecuted) continue;
    results.push({
      type: "tool-result",
      toolCallId: p.toolCallId,
      toolName: p.toolName,
      output: p.type === "tool-result" ? resultOutput(p.output) : { type: "error-text", value: errorMessage(p.error) },
      ...(p.providerMetadata != null ? { providerOptions: p.providerMetadata as never } : {}),
    });
  }
  const messages: ModelMessage[] = [];
  if (said.length > 0) messages.push({ role: "assistant", content: said });
  if (results.length > 0) {
    // In the order of the calls, whatever order they finished in (a stable sort).
    const rank = (r: ToolResultPart) => order.get(r.toolCallId) ?? Number.MAX_SAFE_INTEGER;
    messages.push({ role: "tool", content: results.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map(({ r }) => r) });
  }
  return messages;
}

/** A tool's return value as the model reads it: text as text, text with images as content (sdk-tools.ts), anything else as JSON. */
function resultOutput(output: unknown): ToolResultPart["output"] {
  if (isImageContent(output)) return output as ToolResultPart["output"];
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: (output ?? null) as never };
}

function errorMessage(error: unknown): string {
  if (error == null) return "unknown error";
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}

/**
 * The messages with any tool call's arguments nested too deep for a session (lib/fs/nesting.ts)
 * replaced by a note. Only a broken or hostile model sends such arguments, and no tool accepts
 * them, but kept as they are they would make the session impossible to save, load or send again.
 * Returns the same array when there is nothing to replace.
 */
export function withKeepableInputs(messages: ModelMessage[]): ModelMessage[] {
  const deep = (m: ModelMessage) =>
    m.role === "assistant" && typeof m.content !== "string" && m.content.some((p) => p.type === "tool-call" && nestedDeeperThan(p.input, MAX_INPUT_NESTING));
  if (!messages.some(deep)) return messages;
  return messages.map((m) =>
    m.role === "assistant" && typeof m.content !== "string" && deep(m)
      ? { ...m, content: m.content.map((p) => (p.type === "tool-call" && nestedDeeperThan(p.input, MAX_INPUT_NESTING) ? { ...p, input: DEEP_INPUT_NOTE } : p)) }
      : m,
  );
}

/**
 * The step's assistant message carrying the server's `reasoning_details`, where the compatible
 * client sends them back (as a field of that message in the next request), and where the
 * session file keeps them. Unchanged when there are none.
 */
export function withReasoningDetails(messages: ModelMessage[], details: unknown[] | undefined): ModelMessage[] {
  if (!details || details.length === 0) return messages;
  return messages.map((m) =>
    m.role === "assistant" ? ({ ...m, providerOptions: { ...m.providerOptions, openaiCompatible: { ...m.providerOptions?.openaiCompatible, [REASONING_DETAILS_KEY]: details as never } } } as ModelMessage) : m,
  );
}

/** The assistant message and results as streamed, without provider item ids (sent inline). */
export function rebuildMessages(
  text: string,
  calls: { toolCallId: string; toolName: string; input: unknown }[],
  results: { toolCallId: string; toolName: string; output: string; error: boolean }[],
): ModelMessage[] {
  const content: Exclude<AssistantModelMessage["content"], string> = [];
  if (text) content.push({ type: "text", text });
  for (const call of calls) content.push({ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input ?? {} });
  if (content.length === 0) return [];
  const messages: ModelMessage[] = [{ role: "assistant", content }];
  const answered = results.filter((r) => calls.some((c) => c.toolCallId === r.toolCallId));
  if (answered.length > 0) {
    messages.push({
      role: "tool",
      content: answered.map((r) => ({
        type: "tool-result" as const,
        toolCallId: r.toolCallId,
        toolName: r.toolName,
        output: r.error ? { type: "error-text" as const, value: r.output } : { type: "text" as const, value: r.output },
      })),
    });
  }
  return messages;
}

/** The step's tool results with shiro's wording where it has its own (`reworded`, by call id). */
export function withReworded(messages: ModelMessage[], reworded: ReadonlyMap<string, string>): ModelMessage[] {
  if (reworded.size === 0) return messages;
  return messages.map((m) =>
    m.role === "tool"
      ? {
          ...m,
          content: m.content.map((p) =>
            p.type === "tool-result" && reworded.has(p.toolCallId) ? { ...p, output: { type: "error-text" as const, value: reworded.get(p.toolCallId)! } } : p,
          ),
        }
      : m,
  );
}
