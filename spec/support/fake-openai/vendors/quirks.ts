// Gateway quirks layered on any vendor's chat stream, applied to the frames after the dialect built them:
// - toolIndexFrom: tool-call `index` counted from N instead of 0 (seen from Bedrock-backed gateways);
// - emptyContinuationIdentity: continuation deltas repeat `id: ""`, `type`, and `function.name: ""` instead of
//   omitting them (Alibaba DashScope and gateways in front of it).
import type { ChatQuirks } from "../types.ts";

type Call = { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } };

export function applyChatQuirks(frames: string[], quirks: ChatQuirks | undefined): string[] {
  if (!quirks || (!quirks.toolIndexFrom && !quirks.emptyContinuationIdentity)) return frames;
  return frames.map((f) => {
    if (!f.startsWith("data: {") || !f.includes('"tool_calls"')) return f;
    const chunk = JSON.parse(f.slice(6));
    for (const choice of chunk.choices ?? []) for (const call of (choice.delta?.tool_calls ?? []) as Call[]) adjust(call, quirks);
    return `data: ${JSON.stringify(chunk)}\n\n`;
  });
}

function adjust(call: Call, quirks: ChatQuirks) {
  if (quirks.toolIndexFrom && typeof call.index === "number") call.index += quirks.toolIndexFrom;
  if (quirks.emptyContinuationIdentity && call.id === undefined) {
    call.id = "";
    call.type = "function";
    call.function = { name: "", ...call.function };
  }
}

/** The frames of a text-only stream up to (not including) its finish: what is sent before an in-stream error.
 *  Comments, the role delta and content deltas are kept; the first frame that finishes, reports usage or ends
 *  the stream, and everything after it, is dropped. */
export function beforeFinish(frames: string[]): string[] {
  const end = frames.findIndex((f) => {
    if (f === "data: [DONE]\n\n") return true;
    if (!f.startsWith("data: {")) return false;
    const chunk = JSON.parse(f.slice(6));
    return chunk.usage != null || (chunk.choices ?? []).some((c: any) => c.finish_reason != null);
  });
  return end < 0 ? frames : frames.slice(0, end);
}
