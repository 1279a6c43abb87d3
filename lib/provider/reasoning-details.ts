/**
 * OpenRouter's `reasoning_details`: the upstream model's reasoning as typed entries (plain text,
 * summaries, or encrypted signatures for Gemini and Claude). They stream as pieces in
 * `choices[0].delta.reasoning_details`, and must go back, whole, on the assistant message of a
 * tool step, or the upstream refuses the follow-up.
 */
export type ReasoningDetail = Record<string, unknown> & { type?: string; index?: number };

/** The provider-metadata key the details travel under, from the stream to the saved message. */
export const REASONING_DETAILS_KEY = "reasoning_details";

/** Merges streamed pieces: entries with the same index and type are one entry, their text fields joined. */
export function mergeReasoningDetails(into: ReasoningDetail[], pieces: unknown): void {
  if (!Array.isArray(pieces)) return;
  for (const piece of pieces) {
    if (!piece || typeof piece !== "object") continue;
    const detail = piece as ReasoningDetail;
    const same = into.find((d) => d.index !== undefined && d.index === detail.index && d.type === detail.type);
    if (!same) {
      into.push({ ...detail });
      continue;
    }
    for (const [key, value] of Object.entries(detail)) {
      if ((key === "text" || key === "summary" || key === "data") && typeof value === "string" && typeof same[key] === "string") same[key] = (same[key] as string) + value;
      else if (value !== undefined && value !== null) same[key] = value;
    }
  }
}

/** A metadata extractor for @ai-sdk/openai-compatible that collects `reasoning_details`. */
export const reasoningDetailsExtractor = {
  async extractMetadata({ parsedBody }: { parsedBody: unknown }) {
    const details: ReasoningDetail[] = [];
    mergeReasoningDetails(details, (parsedBody as { choices?: { message?: { reasoning_details?: unknown } }[] })?.choices?.[0]?.message?.reasoning_details);
    return details.length > 0 ? { shiro: { [REASONING_DETAILS_KEY]: details as never } } : undefined;
  },
  createStreamExtractor() {
    const details: ReasoningDetail[] = [];
    return {
      processChunk(chunk: unknown) {
        mergeReasoningDetails(details, (chunk as { choices?: { delta?: { reasoning_details?: unknown } }[] })?.choices?.[0]?.delta?.reasoning_details);
      },
      buildMetadata: () => (details.length > 0 ? { shiro: { [REASONING_DETAILS_KEY]: details as never } } : undefined),
    };
  },
};
