// History a vendor insists on getting back, checked on every chat request (a rejection is a protocol error:
// it is how the fake catches a client dropping reasoning).
// - DeepSeek (thinking mode): an assistant message with tool_calls from a step that reasoned must carry that
//   step's `reasoning_content`, in every later request. Body: DeepSeek's real 400.
// - OpenRouter (Gemini upstream): an assistant message with tool_calls must carry the `reasoning_details` with
//   the turn's `reasoning.encrypted` thought signature. Body: OpenRouter's real 400 ("Provider returned error",
//   the upstream's reason in metadata.raw).
import { Rejection } from "../errors.ts";
import type { ChatTurn } from "./chat-kit.ts";
import { OPENROUTER_PROVIDER, reasoningDetails } from "./openrouter.ts";

export type EchoRule = "deepseek" | "openrouter";

export class EchoLedger {
  /** call id → what its step must bring back (DeepSeek: the reasoning text; OpenRouter: the signature). */
  private owed = new Map<string, string>();

  constructor(private readonly rule: EchoRule | undefined) {}

  /** Remember what a streamed/answered turn will require of the requests after it. */
  record(turn: ChatTurn): void {
    if (this.rule === "deepseek" && turn.reasoning !== "") for (const c of turn.calls) this.owed.set(c.id, turn.reasoning);
    if (this.rule === "openrouter") {
      const signature = reasoningDetails(turn).find((d) => d.type === "reasoning.encrypted");
      if (signature) for (const c of turn.calls) this.owed.set(c.id, String(signature.data));
    }
  }

  check(body: any): Rejection | undefined {
    if (!this.rule) return undefined;
    const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (m?.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
      const ids: string[] = m.tool_calls.map((c: any) => String(c?.id)).filter((id: string) => this.owed.has(id));
      if (ids.length === 0) continue;
      if (this.rule === "deepseek" && !(typeof m.reasoning_content === "string" && m.reasoning_content !== ""))
        return deepseekMissingReasoning(i, ids);
      if (this.rule === "openrouter") {
        const wanted = this.owed.get(ids[0]!)!;
        const details: any[] = Array.isArray(m.reasoning_details) ? m.reasoning_details : [];
        if (!details.some((d) => d?.type === "reasoning.encrypted" && d.data === wanted))
          return openrouterMissingSignature(i, ids, m.tool_calls[0]?.function?.name ?? "tool");
      }
    }
    return undefined;
  }
}

const deepseekMissingReasoning = (index: number, ids: string[]) =>
  new Rejection(
    400,
    {
      error: {
        message: "The `reasoning_content` in the thinking mode must be passed back to the API.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_request_error",
      },
    },
    `deepseek: messages[${index}] assistant tool_calls ${ids.join(", ")} came from a thinking step, but its reasoning_content was not sent back`,
  );

function openrouterMissingSignature(index: number, ids: string[], name: string) {
  const upstream = {
    error: {
      code: 400,
      message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      status: "INVALID_ARGUMENT",
    },
  };
  const raw = `Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks. Upstream error: ${JSON.stringify(upstream, null, 2)}\n`;
  return new Rejection(
    400,
    { error: { message: "Provider returned error", code: 400, metadata: { raw, provider_name: OPENROUTER_PROVIDER } } },
    `openrouter: messages[${index}] assistant tool_calls ${ids.join(", ")} were sent without the reasoning_details (reasoning.encrypted thought signature) of their turn`,
  );
}
