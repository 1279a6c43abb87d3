import type { ModelMessage, ToolResultPart } from "ai";
import { DIGEST_HEADER, digestOf, toolsByName, type DigestedTool, type ToolDigest } from "./digest.ts";
import { rollUpDigests } from "./digest-rollup.ts";
import { partsOf, type AnyPart } from "./item-ids.ts";

export type ToolContentOptions = {
  /** Messages at the end of the history whose tool content is kept as it is. */
  keepLast: number;
  /**
   * Most characters of digest lines. Past it the oldest lines are rolled up into one condensed
   * line, so the digest of a very long session cannot crowd out the request it belongs to.
   * Unlimited by default.
   */
  maxDigestChars?: number;
  /** The session's tools, whose definitions say how their calls read in a digest line. */
  tools?: readonly DigestedTool[];
};

/** The roll-up boundary moves in steps of this many calls, so the pruned prefix rarely changes. */
export const ROLLUP_STEP = 20;

/**
 * Removes the tool content of every message before the last `keepLast`, replacing each removed
 * call and its result with one digest line (see digest.ts), so the model still knows what it ran
 * and how it ended. Precisely:
 * - the window of kept messages grows backwards until no result in it is separated from its call;
 * - before the window, each run of assistant and tool messages between two user (or system)
 *   messages becomes one assistant message: its text and other non-tool parts in order, each
 *   stretch of tool calls replaced by a text block of digest lines under DIGEST_HEADER; its tool
 *   messages and approval parts go. Runs without tool content are kept as they are;
 * - past `maxDigestChars`, the oldest lines become one roll-up line at the first digest block;
 * - user and system messages are never touched.
 * Deterministic, so the pruned prefix stays the same from one step to the next (prompt caching).
 * Never mutates its input; returns it when there is nothing before the window.
 */
export function pruneToolContent(
  messages: readonly ModelMessage[],
  options: ToolContentOptions,
): { messages: ModelMessage[]; digested: number; rolledUp: number } {
  const cut = windowStart(messages, Math.max(0, options.keepLast));
  if (cut === 0) return { messages: messages as ModelMessage[], digested: 0, rolledUp: 0 };
  const before = digestBefore(messages, cut, options);
  const out = before.messages;
  for (let i = cut; i < messages.length; i++) out.push(messages[i]!);
  return { messages: out, digested: before.digested, rolledUp: before.rolledUp };
}

/**
 * The digested form of `messages[0, cut)`: what pruneToolContent puts before its window. Depends
 * on those messages (and the options) only, never on what follows the cut, so a cut that stays
 * put gives the same digest byte for byte however long the history grows. `cut` must not
 * separate a result after it from its call before it (windowStart chooses such cuts).
 */
export function digestBefore(
  messages: readonly ModelMessage[],
  cut: number,
  options: Omit<ToolContentOptions, "keepLast">,
): { messages: ModelMessage[]; digested: number; rolledUp: number } {
  const results = new Map<string, AnyPart>();
  const calls: AnyPart[] = [];
  for (let i = 0; i < cut; i++) {
    const m = messages[i]!;
    if (m.role !== "tool" && m.role !== "assistant") continue;
    for (const p of partsOf(m)) {
      if (p.type === "tool-result" && !results.has(p.toolCallId as string)) results.set(p.toolCallId as string, p);
      else if (p.type === "tool-call") calls.push(p);
    }
  }
  // Calls are met again in the same order below, so digests are matched by position.
  const toolNamed = toolsByName(options.tools);
  const digests = calls.map((call) => digestFor(call, results.get(call.toolCallId as string), toolNamed(call.toolName as string)));
  const rolledUp = oldestOverBudget(digests, options.maxDigestChars);
  let rollUp = rolledUp > 0 ? rollUpDigests(digests.slice(0, rolledUp)) : undefined;
  let next = 0;
  const lineOfNext = () => {
    const k = next++;
    return k < rolledUp ? undefined : digests[k]!.line;
  };

  const out: ModelMessage[] = [];
  let run: ModelMessage[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (!run.some(hasToolContent)) out.push(...run);
    else {
      const content = mergeRun(run, lineOfNext, rollUp);
      rollUp = undefined;
      if (content.length > 0) out.push({ role: "assistant", content } as unknown as ModelMessage);
    }
    run = [];
  };
  for (let i = 0; i < cut; i++) {
    const m = messages[i]!;
    if (m.role === "assistant" || m.role === "tool") run.push(m);
    else {
      flush();
      out.push(m);
    }
  }
  flush();
  return { messages: out, digested: calls.length, rolledUp };
}

/**
 * Index of the first kept message: the last `keep` of `messages[0, end)`, extended back to the
 * calls their results answer.
 */
export function windowStart(messages: readonly ModelMessage[], keep: number, end = messages.length): number {
  let cut = Math.max(0, end - keep);
  // Results in the window whose call is not in it yet; their calls are usually just before the cut.
  const wanted = new Set<string>();
  const take = (i: number) => {
    const m = messages[i]!;
    for (const p of partsOf(m)) {
      if (m.role === "tool" && p.type === "tool-result") wanted.add(p.toolCallId as string);
      else if (m.role === "assistant" && p.type === "tool-call") wanted.delete(p.toolCallId as string);
    }
  };
  for (let i = end - 1; i >= cut; i--) take(i);
  for (let i = cut - 1; i >= 0 && wanted.size > 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant" && partsOf(m).some((p) => p.type === "tool-call" && wanted.has(p.toolCallId as string))) {
      for (let j = cut - 1; j >= i; j--) take(j);
      cut = i;
    }
  }
  return cut;
}

/** How many of the oldest digests do not fit in the budget (in steps of ROLLUP_STEP). */
export function oldestOverBudget(digests: readonly ToolDigest[], budget: number | undefined): number {
  if (budget === undefined) return 0;
  let chars = 0;
  let keepFrom = digests.length;
  while (keepFrom > 0) {
    const next = chars + digests[keepFrom - 1]!.line.length + 3;
    if (next > budget) break;
    chars = next;
    keepFrom--;
  }
  return keepFrom === 0 ? 0 : Math.min(digests.length, Math.ceil(keepFrom / ROLLUP_STEP) * ROLLUP_STEP);
}

export const TOOL_PART_TYPES: ReadonlySet<string> = new Set(["tool-call", "tool-result", "tool-approval-request", "tool-approval-response"]);

export function hasToolContent(m: ModelMessage): boolean {
  return m.role === "tool" || partsOf(m).some((p) => TOOL_PART_TYPES.has(p.type));
}

/** The run's non-tool parts in order, with its calls as digest blocks (`lineOfNext` undefined: rolled up). */
function mergeRun(run: readonly ModelMessage[], lineOfNext: () => string | undefined, rollUp: string | undefined): AnyPart[] {
  const content: AnyPart[] = [];
  let lines: string[] = rollUp ? [rollUp] : [];
  const flushLines = () => {
    if (lines.length === 0) return;
    content.push({ type: "text", text: `${DIGEST_HEADER}\n${lines.map((l) => "- " + l).join("\n")}` });
    lines = [];
  };
  for (const m of run) {
    if (m.role === "tool") continue; // its results are in the digest lines
    if (typeof m.content === "string") {
      flushLines();
      content.push({ type: "text", text: m.content });
      continue;
    }
    for (const p of partsOf(m)) {
      if (p.type === "tool-call") {
        const line = lineOfNext();
        if (line !== undefined) lines.push(line);
      } else if (!TOOL_PART_TYPES.has(p.type)) {
        flushLines();
        content.push(p);
      }
    }
  }
  flushLines();
  return content;
}

/** Digests are cached per call part (with the result and the tool they were made from). */
const digestCache = new WeakMap<AnyPart, { result: AnyPart | undefined; tool: DigestedTool | undefined; digest: ToolDigest }>();
export function digestFor(call: AnyPart, result: AnyPart | undefined, tool: DigestedTool | undefined): ToolDigest {
  const cached = digestCache.get(call);
  if (cached && cached.result === result && cached.tool === tool) return cached.digest;
  const digest = digestOf({ toolName: call.toolName as string, input: call.input }, result ? { output: result.output as ToolResultPart["output"] } : undefined, tool);
  digestCache.set(call, { result, tool, digest });
  return digest;
}
