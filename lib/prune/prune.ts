import type { ModelMessage } from "ai";
import type { AgentEvent } from "../events.ts";
import { isReasoningPart, partsOf, withParts } from "./item-ids.ts";
import { memoByIdentity } from "./memo.ts";
import { detachOrphanedItems, dropOrphanedResults, stripItemIds } from "./repair.ts";
import { CHARS_PER_TOKEN, estimateTokens } from "./tokens.ts";
import type { DigestedTool } from "./digest.ts";
import { pruneToolContent } from "./tool-content.ts";

/** Messages whose tool content is kept, tried in order; the first rung that fits wins. */
export const PRUNE_LADDER: readonly number[] = [64, 32, 16, 8, 4];

/** Most of the threshold the digest lines may take; past it the oldest are rolled up into one line. */
export const MAX_DIGEST_SHARE = 0.25;

export type PruneOptions = {
  /** Prune when the estimate is above this (settings.pruneAtTokens). Required: the default is applied once, in lib/config. */
  pruneAtTokens: number;
  ladder?: readonly number[];
  /** The session's tools, whose definitions say how a pruned call reads in its digest line. */
  tools?: readonly DigestedTool[];
};

export type PruneReport = {
  /** The wire differs from the history. */
  pruned: boolean;
  /** Messages in the history, and on the wire (the `compacted` event's numbers). */
  before: number;
  after: number;
  /** Estimated tokens of the history and of the wire. */
  tokensBefore: number;
  tokensAfter: number;
  strippedReasoning: boolean;
  /** The ladder rung used (messages whose tool content was kept); absent when stripping reasoning was enough. */
  rung?: number;
  /** Tool calls whose content was removed: each is a digest line, or counted in the roll-up line. */
  digested: number;
  /** Of those, the oldest ones condensed into the single roll-up line (0 unless the digest outgrew its share). */
  rolledUp: number;
  /** The wire is within the threshold. False only when even the last rung was too big (the smallest is sent). */
  fits: boolean;
};

/**
 * The view of the history sent to the provider. Within the threshold: the history itself (same
 * array). Above it, in order, stopping as soon as the estimate fits:
 * 1. reasoning is stripped, then orphaned item references detached;
 * 2. the ladder: keep the tool content of the last 64, 32, 16, 8, 4 messages and replace older
 *    calls with digest lines, never separating a call from its result (digest lines beyond
 *    MAX_DIGEST_SHARE of the threshold are rolled up into one line, oldest first);
 * and orphaned results are dropped. A pruned wire carries no provider item id at all, so it never
 * depends on anything stored on the provider's side. If even the last rung is too big, the
 * smallest wire is returned with `fits: false`.
 * Never removes user messages; never mutates the history (the caller keeps it whole). Cheap on
 * repeat calls: per-message work is cached by identity, so call it before every step.
 */
export function pruneForWire(messages: readonly ModelMessage[], options: PruneOptions): { messages: ModelMessage[]; report: PruneReport } {
  const threshold = options.pruneAtTokens;
  const tokensBefore = estimateTokens(messages);
  const base = { before: messages.length, tokensBefore, digested: 0, rolledUp: 0 };
  if (tokensBefore <= threshold) {
    return { messages: messages as ModelMessage[], report: { ...base, pruned: false, after: messages.length, tokensAfter: tokensBefore, strippedReasoning: false, fits: true } };
  }

  const stripped = stripReasoning(messages);
  const strippedReasoning = stripped !== messages;
  const inline = dropOrphanedResults(stripItemIds(detachOrphanedItems(stripped)));
  const result = (wire: ModelMessage[], extra: { rung?: number; digested?: number; rolledUp?: number }) => {
    const tokensAfter = estimateTokens(wire);
    return {
      messages: wire,
      report: { ...base, ...extra, pruned: wire !== messages, after: wire.length, tokensAfter, strippedReasoning, fits: tokensAfter <= threshold },
    };
  };

  let best = result(inline, {});
  if (best.report.fits) return best;
  for (const rung of options.ladder ?? PRUNE_LADDER) {
    const cut = pruneToolContent(inline, { keepLast: rung, maxDigestChars: threshold * CHARS_PER_TOKEN * MAX_DIGEST_SHARE, tools: options.tools });
    const candidate = result(dropOrphanedResults(cut.messages), { rung, digested: cut.digested, rolledUp: cut.rolledUp });
    if (candidate.report.fits) return candidate;
    if (candidate.report.tokensAfter < best.report.tokensAfter) best = candidate;
  }
  return best;
}

/**
 * Removes every reasoning part; assistant messages left empty are removed. The first thing
 * discarded: reasoning is the largest part of a reasoning model's history and the least needed
 * once its conclusions are in the text and tool calls. Returns the input itself when it has none.
 */
export function stripReasoning(messages: readonly ModelMessage[]): ModelMessage[] {
  let out: ModelMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const next = withoutReasoning(m);
    if (next !== m && !out) out = messages.slice(0, i) as ModelMessage[];
    if (out && next) out.push(next);
  }
  return out ?? (messages as ModelMessage[]);
}

const withoutReasoning = memoByIdentity((m: ModelMessage): ModelMessage | undefined => {
  if (m.role !== "assistant") return m;
  const parts = partsOf(m);
  if (!parts.some(isReasoningPart)) return m;
  return withParts(m, parts.filter((p) => !isReasoningPart(p)));
});

/** The `compacted` event for a report (`context compacted: 192 messages pruned to 15 on the wire`), if it pruned. */
export function compactedEvent(report: PruneReport): Extract<AgentEvent, { type: "compacted" }> | undefined {
  return report.pruned ? { type: "compacted", before: report.before, after: report.after } : undefined;
}
