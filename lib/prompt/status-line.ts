import { contextGauge, type ContextLevel } from "../prune/tokens.ts";
import { formatUsd } from "../sessions/pricing.ts";

/** How a segment should look; the terminal edge maps tones to colours (or to nothing). */
export type StatusTone = "dim" | "normal" | "amber" | "red";
export type StatusSegment = { text: string; tone: StatusTone };

export type StatusInput = {
  model: string;
  /**
   * Estimated tokens of the request as sent, after pruning (the turn reports it with each step;
   * before the first request, what the history would send now). The same estimate pruning uses.
   */
  wireTokens: number;
  /** The prune threshold of the conversation (its budget in the window, at most settings.pruneAtTokens); the percentage is of this. */
  pruneAtTokens: number;
  /**
   * Tokens in the context now: the provider's count for the last request (its input and its
   * output), or an estimate (`estimated`, shown with "~") before any request reported one.
   * Not the session's billed total: that is /cost's.
   */
  contextTokens: { count: number; estimated: boolean };
  /** USD so far; "unpriced" when the model has no price; left out, no cost segment is shown. */
  cost?: number | "unpriced";
  /** The approval mode (`ask`, `edits`, `auto`, …), shown last as `mode ask`; left out, not shown. */
  mode?: string;
};

/**
 * The status line under the prompt: `gpt-5 · context 12% · 15.2k tokens · $0.0412 · mode ask`.
 * The context share is the request actually sent, after pruning, measured with the estimate
 * pruning uses (JSON length / 4) against the pruning threshold: normal below two thirds, amber
 * from two thirds, red from 90%. Since pruning keeps the request within the threshold, it reads
 * past 100% only when even the smallest request is too big. Pure.
 */
export function statusSegments(input: StatusInput): StatusSegment[] {
  const gauge = contextGauge(input.wireTokens, input.pruneAtTokens);
  const tokens = input.contextTokens;
  const segments: StatusSegment[] = [
    { text: input.model, tone: "normal" },
    { text: `context ${gauge.percent}%`, tone: toneOf(gauge.level) },
    { text: `${tokens.estimated && tokens.count > 0 ? "~" : ""}${formatTokenCount(tokens.count)} tokens`, tone: "dim" },
  ];
  if (input.cost !== undefined) segments.push({ text: input.cost === "unpriced" ? "unpriced" : formatUsd(input.cost), tone: "dim" });
  if (input.mode !== undefined) segments.push({ text: `mode ${input.mode}`, tone: input.mode === "ask" ? "dim" : "amber" });
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
