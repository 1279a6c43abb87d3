import { contextGauge, type ContextLevel } from "../prune/tokens.ts";
import { formatUsd } from "../sessions/pricing.ts";

/** How a segment should look; the terminal edge maps tones to colours (or to nothing). */
export type StatusTone = "dim" | "normal" | "amber" | "red";
/** `rank`: how much the segment matters, 0 most; a narrow terminal leaves out the highest ranks first (fitSegments). */
export type StatusSegment = { text: string; tone: StatusTone; rank: number };

export type StatusInput = {
  model: string;
  /**
   * The next request's size, estimated (JSON length / 4, in the server's tokens): the instructions,
   * the tool definitions, the conversation as pruning would send it and the task list note, before
   * the next prompt is added. Recomputed from the history as it is, so an interrupt or /undo moves
   * it with the history. Not what the session has spent: that is /cost's.
   */
  requestTokens: number;
  /** The model's context window, in the server's tokens: what the request must fit. */
  windowTokens: number;
  /** The conversation's part of the request and its budget (the prune threshold), estimated: the colour is this share. */
  conversationTokens: number;
  budgetTokens: number;
  /** USD spent so far in the session; "unpriced" when the model has no price; left out, no cost segment is shown. */
  cost?: number | "unpriced";
  /** The approval mode (`ask`, `edits`, `auto`, …), shown last as `mode ask`; left out, not shown. */
  mode?: string;
  /** The agent variant, when it is not the default one: shown after the model as `agent plan`. */
  agent?: string;
  /** The thinking level, when it is not the agent's own: shown after the agent as `think high`. */
  thinking?: string;
  /** `--yolo`: nothing asks, which the line says in red in the mode's place (`yolo`), kept before the model on a narrow terminal. */
  yolo?: boolean;
  /** The session's goal (docs/goals.md), as lib/agent/goal.ts goalStatus words it: `goal · turn 3/10 · check failing`. */
  goal?: string;
};

/**
 * The status line under the prompt: `gpt-5 · ctx ~15.2k/400k · spent $0.0412 · mode ask`, with
 * `agent plan` and `think high` after the model when /agent or /think moved them off their defaults. `ctx`
 * is the size of the next request against the window; it is normal while the conversation is
 * below two thirds of its budget, amber from two thirds and red from 90% (the conversation is
 * pruned at 100%, so red means pruning is near or under way). Pure.
 */
export function statusSegments(input: StatusInput): StatusSegment[] {
  const gauge = contextGauge(input.conversationTokens, input.budgetTokens);
  // Ranks: the context first, then a mode or agent that is not the default, the model, the default mode and
  // a thinking level of the user's choice, the spending.
  const segments: StatusSegment[] = [
    { text: input.model, tone: "normal", rank: 2 },
  ];
  if (input.agent !== undefined) segments.push({ text: `agent ${input.agent}`, tone: "amber", rank: 1 });
  if (input.thinking !== undefined) segments.push({ text: `think ${input.thinking}`, tone: "dim", rank: 3 });
  segments.push(
    { text: `ctx ~${formatTokenCount(input.requestTokens)}/${formatTokenCount(input.windowTokens)}`, tone: toneOf(gauge.level), rank: 0 },
  );
  if (input.cost !== undefined) segments.push({ text: input.cost === "unpriced" ? "spent: unpriced" : `spent ${formatUsd(input.cost)}`, tone: "dim", rank: 4 });
  if (input.goal !== undefined) segments.push({ text: input.goal, tone: /failing|paused|unmet/.test(input.goal) ? "amber" : "dim", rank: 1 });
  if (input.yolo) segments.push({ text: "yolo", tone: "red", rank: 1 });
  else if (input.mode !== undefined) segments.push({ text: `mode ${input.mode}`, tone: input.mode === "ask" ? "dim" : "amber", rank: input.mode === "ask" ? 3 : 1 });
  return segments;
}

/**
 * The segments that fit in `width` columns joined with ` · `, in their order: taken by rank, each
 * one that still fits kept whole, so a narrow terminal loses the spending first and the context
 * last, and never shows a segment cut in half. The context stays even when it alone is too wide.
 */
export function fitSegments(segments: readonly StatusSegment[], width: number): StatusSegment[] {
  const kept = new Set<StatusSegment>();
  for (const segment of [...segments].sort((a, b) => a.rank - b.rank)) {
    const trial = segments.filter((s) => kept.has(s) || s === segment);
    if (kept.size === 0 || Bun.stringWidth(statusText(trial)) <= width) kept.add(segment);
  }
  return segments.filter((s) => kept.has(s));
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
