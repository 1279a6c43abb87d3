import type { ModelMessage } from "ai";
import type { Usage } from "../events.ts";
import { contextGauge, estimateTokens, type ContextLevel } from "../prune/tokens.ts";
import { formatUsd } from "../sessions/pricing.ts";

/** How a segment should look; the terminal edge maps tones to colours (or to nothing). */
export type StatusTone = "dim" | "normal" | "amber" | "red";
export type StatusSegment = { text: string; tone: StatusTone };

export type StatusInput = {
  model: string;
  /** The conversation's history; its size is the context estimate. */
  messages: readonly ModelMessage[];
  /** The prune threshold of the conversation (its budget in the window, at most settings.pruneAtTokens); the percentage is of this. */
  pruneAtTokens: number;
  /** Tokens the provider reported for this session. */
  usage: Usage;
  /** USD so far; "unpriced" when the model has no price; left out, no cost segment is shown. */
  cost?: number | "unpriced";
};

/**
 * The line shown before each prompt: `gpt-5 · context 12% · 15.2k tokens · $0.0412`.
 * The context share uses the same estimate as compaction (JSON length / 4 of the history) against
 * the compaction threshold, so 100% is "compaction is due": normal below two thirds, amber from
 * two thirds, red from 90%. Pure.
 */
export function statusSegments(input: StatusInput): StatusSegment[] {
  const gauge = contextGauge(estimateTokens(input.messages), input.pruneAtTokens);
  const segments: StatusSegment[] = [
    { text: input.model, tone: "normal" },
    { text: `context ${gauge.percent}%`, tone: toneOf(gauge.level) },
    { text: `${formatTokenCount(input.usage.inputTokens + input.usage.outputTokens)} tokens`, tone: "dim" },
  ];
  if (input.cost !== undefined) segments.push({ text: input.cost === "unpriced" ? "unpriced" : formatUsd(input.cost), tone: "dim" });
  return segments;
}

/** The segments as plain text, joined the way the screen shows them. */
export function statusText(segments: readonly StatusSegment[]): string {
  return segments.map((segment) => segment.text).join(" · ");
}

function toneOf(level: ContextLevel): StatusTone {
  switch (level) {
    case "normal":
      return "dim";
    case "amber":
      return "amber";
    case "red":
      return "red";
    default:
      return level satisfies never;
  }
}

/** 950 → "950", 15_230 → "15.2k", 152_300 → "152k", 2_400_000 → "2.4M". */
export function formatTokenCount(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${trimZero((tokens / 1000).toFixed(tokens < 100_000 ? 1 : 0))}k`;
  return `${trimZero((tokens / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.replace(/\.0$/, "");
}
