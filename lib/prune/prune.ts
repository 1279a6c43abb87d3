import type { ModelMessage } from "ai";
import type { AgentEvent } from "../events.ts";
import { isReasoningPart, partsOf, withParts } from "./item-ids.ts";
import { memoByIdentity } from "./memo.ts";
import { detachOrphanedItems, dropOrphanedResults, stripItemIds } from "./repair.ts";
import { CHARS_PER_TOKEN, estimateTokens, messageChars } from "./tokens.ts";
import type { DigestedTool } from "./digest.ts";
import { DigestSizes } from "./digest-size.ts";
import { digestBefore, hasToolContent, windowStart } from "./tool-content.ts";

/** A new cut aims the wire at this share of the threshold, so many more steps fit before the next one. */
export const RECUT_TO = 0.5;

/** Messages at the end whose tool content is always kept (the last step and its results). */
export const MIN_KEPT_MESSAGES = 4;

/** Most of the threshold the digest lines may take; past it the oldest are rolled up into one line. */
export const MAX_DIGEST_SHARE = 0.25;

/**
 * A deeper cut is made only when the messages it would add to the digest hold at least this share
 * of the threshold in calls and results: a digest shortens only those (a conversation of plain
 * text is sent as it is), and a cut that gains next to nothing would break the cached prefix for
 * nothing, and be made again at every later request.
 */
export const MIN_CUT_GAIN_SHARE = 0.05;

export type PruneOptions = {
  /**
   * The conversation's budget in estimated tokens: pruned when the estimate is above it. The
   * turn's is RequestBudget.conversationTokens (the user's compactAtTokens, or less where the
   * window leaves less). Required: the default is applied once, in lib/config.
   */
  budgetTokens: number;
  /** The share of the threshold a new cut aims for (RECUT_TO). */
  recutTo?: number;
  /** Messages at the end whose tool content is always kept (MIN_KEPT_MESSAGES). */
  minKept?: number;
  /** The session's tools, whose definitions say how a pruned call reads in its digest line. */
  tools?: readonly DigestedTool[];
  /**
   * Build every digest a cut tries instead of measuring it (DigestSizes): the same cuts, slower;
   * the reference the specs compare the measured walk with.
   */
  buildDigests?: boolean;
};

export type PruneReport = {
  /** The wire differs from the history. */
  pruned: boolean;
  /** Messages in the history, and on the wire (the `compacted` event's numbers). */
  before: number;
  after: number;
  /** The threshold the wire is kept under (PruneOptions.pruneAtTokens). */
  threshold: number;
  /** When the wire has as many messages as the history: how many of them were changed (0 otherwise). */
  folded: number;
  /** Estimated tokens of the history and of the wire. */
  tokensBefore: number;
  tokensAfter: number;
  strippedReasoning: boolean;
  /** Messages after the cut, sent with their tool content; absent when stripping reasoning was enough (nothing digested). */
  kept?: number;
  /** Tool calls whose content was removed: each is a digest line, or counted in the roll-up line. */
  digested: number;
  /** Of those, the oldest ones condensed into the single roll-up line (0 unless the digest outgrew its share). */
  rolledUp: number;
  /** The wire is within the threshold. False only when even the deepest cut was too big (the smallest is sent). */
  fits: boolean;
  /** How many times, over the whole history, the wire crossed the threshold and was cut (0: never pruned). */
  cuts: number;
  /** The latest cut was made for this request (the wire's prefix changed here); false while a cut stays put. */
  recut: boolean;
};

/**
 * The view of the history sent to the provider. Within the threshold: the history itself (same
 * array). Past it the wire is pruned, and the pruning is sticky, so that the requests of a long
 * task share a prefix the provider can cache:
 * - the first time the history passes the threshold, reasoning is stripped (orphaned item
 *   references detached, every provider item id removed), and if that does not bring the wire
 *   down to RECUT_TO of the threshold, a cut is made: the tool content before it is replaced by
 *   digest lines (digest lines beyond MAX_DIGEST_SHARE of the threshold are rolled up into one
 *   line, oldest first). The cut is the shallowest step boundary that brings the wire to RECUT_TO
 *   of the threshold (never separating a call from its result, keeping at least the last
 *   MIN_KEPT_MESSAGES), else the deepest one;
 * - that cut stays put — the same messages digested the same way, byte for byte — for every
 *   later request until the pruned wire itself (not the history) crosses the threshold again;
 *   then a deeper cut is made the same way.
 * The cuts are a function of the history and the options alone: they are found by walking the
 * history's request points (after a user message or a tool result) from the start, so a resumed
 * session derives the same wire as the process that wrote it. Work already done for an earlier,
 * shorter history is reused (cached by message identity), so call it before every step.
 * Orphaned results are dropped. Never removes user messages; never mutates the history.
 */
export function pruneForWire(messages: readonly ModelMessage[], options: PruneOptions): { messages: ModelMessage[]; report: PruneReport } {
  const threshold = options.budgetTokens;
  const tokensBefore = estimateTokens(messages);
  const base = { before: messages.length, tokensBefore, threshold };
  if (tokensBefore <= threshold) {
    return {
      messages: messages as ModelMessage[],
      report: { ...base, pruned: false, after: messages.length, folded: 0, tokensAfter: tokensBefore, strippedReasoning: false, digested: 0, rolledUp: 0, fits: true, cuts: 0, recut: false },
    };
  }

  const settings: CutSettings = {
    threshold,
    target: Math.floor(threshold * (options.recutTo ?? RECUT_TO)),
    minKept: options.minKept ?? MIN_KEPT_MESSAGES,
    maxDigestChars: threshold * CHARS_PER_TOKEN * MAX_DIGEST_SHARE,
    tools: options.tools,
  };
  const run = findRun(settings, messages);
  const walked = run.walk?.inline.length ?? 0; // request points before this were walked by an earlier call
  const { inline, rawEnd, sums, toolSums, strippedReasoning } = extendWalk(run, messages);
  const cuts = run.cuts;
  const n = inline.length;
  let ephemeral: Cut | undefined; // a cut made at an end that is not a request point: returned, not kept
  // Sizes the digests of the cuts this walk tries, the history walked once for all of them.
  const sizes = lazily(() => (options.buildDigests ? undefined : new DigestSizes(inline, settings)));
  const take = (cut: Cut | undefined, at: number) => {
    if (!cut) return;
    if (isRequestPoint(inline, at)) cuts.push(cut);
    else ephemeral = cut;
  };

  let from: number;
  if (cuts.length === 0) {
    // The first crossing: the first request point where the history itself is over the threshold.
    let chars = 2;
    let p = messages.length;
    for (let i = 0; i < messages.length; i++) {
      chars += messageChars(messages[i]!) + (i > 0 ? 1 : 0);
      if (Math.ceil(chars / CHARS_PER_TOKEN) > threshold && isRequestPoint(messages, i + 1)) {
        p = i + 1;
        break;
      }
    }
    let q = 0;
    while (q < n && rawEnd[q]! <= p) q++;
    take(cutAt(inline, { sums, toolSums }, q, undefined, settings, p, sizes), q);
    from = q;
  } else from = cuts[cuts.length - 1]!.at;

  for (let m = Math.max(from + 1, walked); m <= n; m++) {
    if (!isRequestPoint(inline, m) && m !== n) continue;
    const current = ephemeral ?? cuts[cuts.length - 1];
    if (current && wireTokens(current, sums, m) <= threshold) continue;
    take(cutAt(inline, { sums, toolSums }, m, current, settings, rawEnd[m - 1]! + (m < n ? 1 : 0), sizes), m);
  }
  run.raw = messages;

  const state = ephemeral ?? cuts[cuts.length - 1];
  const joined = state ? [...digestOf(state, inline, settings), ...inline.slice(state.cut)] : inline;
  const dropped = dropOrphanedResults(joined);
  const wire = dropped === inline ? inline.slice() : dropped; // the run keeps growing its own array
  const same = wire.length === messages.length && wire.every((m, i) => m === messages[i]);
  const tokensAfter = estimateTokens(wire);
  // The count unchanged: how many messages went out changed (their older tool output folded, or reasoning left out).
  let folded = 0;
  if (!same && wire.length === messages.length) for (let i = 0; i < wire.length; i++) if (wire[i] !== messages[i]) folded++;
  return {
    messages: same ? (messages as ModelMessage[]) : wire,
    report: {
      ...base,
      pruned: !same,
      after: wire.length,
      folded,
      tokensAfter,
      strippedReasoning,
      ...(state && state.cut > 0 ? { kept: n - state.cut } : {}),
      digested: state?.digested ?? 0,
      rolledUp: state?.rolledUp ?? 0,
      fits: tokensAfter <= threshold,
      cuts: cuts.length + (ephemeral ? 1 : 0),
      recut: state !== undefined && state.at === n,
    },
  };
}

type CutSettings = { threshold: number; target: number; minKept: number; maxDigestChars: number; tools: readonly DigestedTool[] | undefined };

/**
 * One cut: made at request point `at` (of the inline history), digesting `inline[0, cut)` into
 * `digestLength` messages of `digestChars` characters. The digest itself is built only for the cut
 * a wire is sent with (digestOf).
 */
type Cut = { at: number; rawAt: number; cut: number; digest?: ModelMessage[]; digestLength: number; digestChars: number; digested: number; rolledUp: number };

/** The cut's digest, built the first time it is sent (`inline` shares the history the cut was found in up to it). */
function digestOf(cut: Cut, inline: readonly ModelMessage[], settings: CutSettings): ModelMessage[] {
  cut.digest ??= cut.cut === 0 ? [] : digestBefore(inline, cut.cut, { maxDigestChars: settings.maxDigestChars, tools: settings.tools }).messages;
  return cut.digest;
}

function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** Cuts already found for a history, reused while later histories share its prefix; `walk` covers all of `raw`. */
type Run = { settings: CutSettings; raw: readonly ModelMessage[]; cuts: Cut[]; walk?: Walk };

/**
 * The inline form of every message of a history (reasoning stripped, ids removed), for each the
 * history length it came from, and prefix sums of their characters, all of them and those a
 * digest can shorten (calls and results). Kept with the run and extended by the new messages only.
 */
type Walk = { inline: ModelMessage[]; rawEnd: number[]; sums: number[]; toolSums: number[]; strippedReasoning: boolean; rawLength: number };

function extendWalk(run: Run, messages: readonly ModelMessage[]): Walk {
  const walk = (run.walk ??= { inline: [], rawEnd: [], sums: [0], toolSums: [0], strippedReasoning: false, rawLength: 0 });
  for (let i = walk.rawLength; i < messages.length; i++) {
    const one = inlineOne(messages[i]!);
    if (one.stripped) walk.strippedReasoning = true;
    if (!one.message) continue;
    const k = walk.inline.length;
    walk.inline.push(one.message);
    walk.rawEnd.push(i + 1);
    walk.sums.push(walk.sums[k]! + messageChars(one.message));
    walk.toolSums.push(walk.toolSums[k]! + toolChars(one.message));
  }
  walk.rawLength = messages.length;
  return walk;
}
const runs: Run[] = [];
const MAX_RUNS = 16; // above a session plus the task tool's most subagents at once (8), so a parallel batch never evicts the parent's run

/** The run for these settings whose history shares the longest prefix with `messages`, its cuts trimmed to that prefix. */
function findRun(settings: CutSettings, messages: readonly ModelMessage[]): Run {
  let best: Run | undefined;
  let bestShared = -1;
  for (const run of runs) {
    const s = run.settings;
    if (s.threshold !== settings.threshold || s.target !== settings.target || s.minKept !== settings.minKept || s.tools !== settings.tools) continue;
    let shared = 0;
    const limit = Math.min(run.raw.length, messages.length);
    while (shared < limit && run.raw[shared] === messages[shared]) shared++;
    if (shared > bestShared) {
      best = run;
      bestShared = shared;
    }
  }
  if (best && bestShared > 0) {
    const valid = best.cuts.findIndex((c) => c.rawAt > bestShared);
    // Another history branching off this one gets its own run, so neither keeps undoing the other's work.
    if (valid === -1 || bestShared === best.raw.length) {
      if (valid !== -1) best.cuts.length = valid;
      if (bestShared < best.raw.length) best.walk = undefined; // the history went back: walked again
      runs.splice(runs.indexOf(best), 1);
      runs.unshift(best);
      return best;
    }
    const branch: Run = { settings, raw: messages, cuts: best.cuts.slice(0, valid) };
    runs.unshift(branch);
    if (runs.length > MAX_RUNS) runs.pop();
    return branch;
  }
  const fresh: Run = { settings, raw: messages, cuts: [] };
  runs.unshift(fresh);
  if (runs.length > MAX_RUNS) runs.pop();
  return fresh;
}

/** A request is sent after a user message or a step's tool results: the points where the wire is measured. */
function isRequestPoint(messages: readonly ModelMessage[], m: number): boolean {
  if (m < 1 || m > messages.length) return false;
  const last = messages[m - 1]!.role;
  return (last === "user" || last === "tool") && (m === messages.length || messages[m]!.role !== "tool");
}

/** Estimated tokens of the wire at point `m` with `cut` in place (exactly estimateTokens of that wire, orphans aside). */
function wireTokens(cut: Cut, sums: readonly number[], m: number): number {
  return tokensOf(cut.digestLength + (m - cut.cut), cut.digestChars + sums[m]! - sums[cut.cut]!);
}

/** estimateTokens of `count` messages of `chars` characters in all (the brackets and commas added). */
function tokensOf(count: number, chars: number): number {
  return Math.ceil((2 + Math.max(0, count - 1) + chars) / CHARS_PER_TOKEN);
}

/**
 * A new cut at request point `m`, deeper than `previous`: the shallowest step boundary whose wire
 * is within the target, else the deepest allowed. Undefined when no deeper cut exists, or when the
 * messages a deeper cut would digest hold too little tool content to shorten the wire
 * (MIN_CUT_GAIN_SHARE). `sums` and `toolSums` are prefix sums of the messages' characters, all of
 * them and those holding calls or results.
 */
function cutAt(
  inline: readonly ModelMessage[],
  { sums, toolSums }: { sums: readonly number[]; toolSums: readonly number[] },
  m: number,
  previous: Cut | undefined,
  settings: CutSettings,
  rawAt: number,
  sizes: () => DigestSizes | undefined,
): Cut | undefined {
  const floor = previous ? previous.cut : -1;
  const deepest = windowStart(inline, settings.minKept, m);
  if (previous && toolSums[Math.max(deepest, floor)]! - toolSums[floor]! < settings.threshold * CHARS_PER_TOKEN * MIN_CUT_GAIN_SHARE) return undefined;
  // Step boundaries after the previous cut, shallowest first, where no kept result would lose its call.
  const candidates: number[] = [];
  const wanted = new Set<string>();
  for (let i = m - 1; i > floor && i >= 0; i--) {
    const message = inline[i]!;
    for (const p of partsOf(message)) {
      if (message.role === "tool" && p.type === "tool-result") wanted.add(p.toolCallId as string);
      else if (message.role === "assistant" && p.type === "tool-call") wanted.delete(p.toolCallId as string);
    }
    if (i <= deepest && wanted.size === 0 && (i === 0 || isStepStart(inline, i))) candidates.push(i);
  }
  candidates.reverse();
  if (candidates.length === 0) return undefined;
  const made = new Map<number, Cut>();
  const make = (c: number) => {
    let cut = made.get(c);
    if (!cut) {
      const size = c === 0 ? { length: 0, chars: 0, digested: 0, rolledUp: 0 } : sizes()?.sizeAt(c);
      if (size) cut = { at: m, rawAt, cut: c, digestLength: size.length, digestChars: size.chars, digested: size.digested, rolledUp: size.rolledUp };
      else {
        const d = digestBefore(inline, c, { maxDigestChars: settings.maxDigestChars, tools: settings.tools });
        cut = { at: m, rawAt, cut: c, digest: d.messages, digestLength: d.messages.length, digestChars: d.messages.reduce((n, x) => n + messageChars(x), 0), digested: d.digested, rolledUp: d.rolledUp };
      }
      made.set(c, cut);
    }
    return cut;
  };
  // The wire shrinks as the cut deepens (a digest line is far smaller than the content it stands
  // for), and a deeper cut's digest holds a shallower one's lines (roll-ups aside). So, from the
  // previous cut's digest: skip every cut whose kept tail alone, beside the digest known so far, is
  // over the target; digest there; if it is still over, the digest just made is the new lower bound.
  // Two or three digests per cut, however long the history.
  let known = { length: previous?.digestLength ?? 0, chars: previous?.digestChars ?? 0 };
  const over = (j: number) => tokensOf(known.length + (m - candidates[j]!), known.chars + sums[m]! - sums[candidates[j]!]!) > settings.target;
  let j = 0;
  for (;;) {
    while (j < candidates.length - 1 && over(j)) j++;
    const cut = make(candidates[j]!);
    if (j === candidates.length - 1 || wireTokens(cut, sums, m) <= settings.target) return cut;
    known = { length: cut.digestLength, chars: cut.digestChars };
    j++;
  }
}


/** Where a cut may fall: a user message, or the first assistant message of a step. */
function isStepStart(messages: readonly ModelMessage[], i: number): boolean {
  const m = messages[i]!;
  if (m.role === "user") return true;
  return m.role === "assistant" && messages[i - 1]!.role !== "assistant";
}

/** The characters of a message a digest can shorten (one holding a call or a result), else 0; cached by identity. */
const toolChars = memoByIdentity((m: ModelMessage) => (hasToolContent(m) ? messageChars(m) : 0));

/** One message as a pruned wire sends it: reasoning stripped, orphaned references detached, item ids removed. */
const inlineOne = memoByIdentity((m: ModelMessage): { message: ModelMessage | undefined; stripped: boolean } => {
  const stripped = stripReasoning([m]);
  return { message: stripItemIds(detachOrphanedItems(stripped))[0], stripped: stripped.length === 0 || stripped[0] !== m };
});

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

/**
 * The `compacted` event for a report (`context compacted: 192 messages pruned to 15 on the wire`),
 * if it pruned. When the count did not change (only older tool output was folded, or reasoning
 * left out), it also says in how many messages, and the threshold it kept the request under.
 */
export function compactedEvent(report: PruneReport): Extract<AgentEvent, { type: "compacted" }> | undefined {
  if (!report.pruned) return undefined;
  const event = { type: "compacted" as const, before: report.before, after: report.after };
  if (report.before !== report.after) return event;
  // Tool output folded only where a cut was made; otherwise only reasoning was left out (folded 0).
  return { ...event, folded: report.digested > 0 ? report.folded : 0, underTokens: report.threshold };
}
