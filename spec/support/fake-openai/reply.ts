// Reply classification and the pieces both wires derive from a scripted turn: text/argument chunking and usage.
import { estimateInputTokens } from "./context-limit.ts";
import { cachedTokensOf } from "./prompt-cache.ts";
import type { FaultReply, HttpErrorReply, RawReply, Reply, ScriptedToolCall, StreamErrorReply, TurnReply } from "./types.ts";

export type ClassifiedReply =
  | { kind: "raw"; reply: RawReply }
  | { kind: "http"; reply: HttpErrorReply }
  | { kind: "fault"; reply: FaultReply }
  | { kind: "stream-error"; reply: StreamErrorReply }
  | { kind: "turn"; reply: TurnReply };

/** Order matters: a raw reply may carry a status too, so it is recognised first. */
export function classify(reply: Reply): ClassifiedReply {
  if ("raw" in reply && typeof reply.raw === "string") return { kind: "raw", reply };
  if ("fault" in reply && reply.fault) return { kind: "fault", reply };
  if ("streamError" in reply && reply.streamError) return { kind: "stream-error", reply };
  if ("status" in reply && typeof reply.status === "number") return { kind: "http", reply: reply as HttpErrorReply };
  return { kind: "turn", reply: reply as TurnReply };
}

/** Split text the way a tokenizer stream looks: words with their leading whitespace ("Hello", " world", "!"). */
export function splitText(text: string): string[] {
  if (text === "") return [];
  return text.match(/\s*[^\s]+|\s+$/g) ?? [text];
}

/** Argument JSON arrives in small fragments on the real wire; 8-code-point slices exercise the client's
 *  buffering (code points, not UTF-16 units, so an emoji is never cut in half). */
export function splitArgs(args: string): string[] {
  const points = Array.from(args);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += 8) out.push(points.slice(i, i + 8).join(""));
  return out;
}

/** A string input is sent verbatim (possibly malformed JSON, on purpose); anything else is JSON-encoded. */
export function argumentsOf(call: ScriptedToolCall): string {
  return typeof call.input === "string" ? call.input : JSON.stringify(call.input ?? {});
}

export type Usage = { input: number; output: number; reasoning: number; cached: number };

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** Scripted usage wins; otherwise a plausible non-zero estimate from sizes: input as estimateInputTokens
 *  counts it, of which the prompt cache's hit is cached (prompt-cache.ts), and output at about 4 characters
 *  a token. Reasoning tokens are part of output tokens, as on the real API; the chat wire passes reasoning=false. */
export function usageFor(reply: TurnReply, requestBody: any, withReasoning: boolean): Usage {
  const reasoningChars = withReasoning ? (reply.reasoning?.length ?? 0) : 0;
  const reasoningTokens = reasoningChars > 0 ? tokens(reasoningChars) : 0;
  if (reply.usage) {
    return {
      input: reply.usage.input,
      output: reply.usage.output,
      reasoning: Math.min(reasoningTokens, reply.usage.output),
      cached: Math.min(reply.usage.cached ?? 0, reply.usage.input),
    };
  }
  const input = Math.max(1, estimateInputTokens(requestBody ?? {}));
  const visible =
    (reply.text?.length ?? 0) +
    (reply.toolCalls ?? []).reduce((n, c) => n + c.name.length + argumentsOf(c).length, 0);
  return { input, output: tokens(visible) + reasoningTokens, reasoning: reasoningTokens, cached: Math.min(cachedTokensOf(requestBody), input) };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
