import type { ModelMessage, ToolResultPart } from "ai";

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

/** A tool's return value as the model reads it: text as text, anything else as JSON. */
function resultOutput(output: unknown): ToolResultPart["output"] {
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: (output ?? null) as never };
}

function errorMessage(error: unknown): string {
  if (error == null) return "unknown error";
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}
