import type { ModelMessage } from "ai";
import { DIGEST_HEADER, toolsByName, type DigestedTool, type ToolDigest } from "./digest.ts";
import { RollUpTally } from "./digest-rollup.ts";
import { partsOf, type AnyPart } from "./item-ids.ts";
import { messageChars } from "./tokens.ts";
import { ROLLUP_STEP, TOOL_PART_TYPES, digestFor, hasToolContent } from "./tool-content.ts";

/** What a cut needs of its digest to be measured: digestBefore's messages counted and sized, and its numbers. */
export type DigestSize = { length: number; chars: number; digested: number; rolledUp: number };

/** JSON lengths of the pieces digestBefore builds: an assistant message with no parts, a digest block with no lines. */
const MESSAGE_CHARS = JSON.stringify({ role: "assistant", content: [] }).length;
const BLOCK_CHARS = JSON.stringify({ type: "text", text: DIGEST_HEADER }).length;
/** A digest line in its block, as JSON: `\n- ` escaped (4 characters) and the line escaped. */
const lineChars = (line: string) => 2 + JSON.stringify(line).length;
const partChars = new WeakMap<object, number>();
const lengthOf = (key: object, value: unknown) => {
  let n = partChars.get(key);
  if (n === undefined) partChars.set(key, (n = JSON.stringify(value).length));
  return n;
};

/** A run of assistant and tool messages with tool content: one merged assistant message of the digest. */
type Merged = { parts: number; partsChars: number; first: "none" | "fixed" | Block; last: Block | undefined };
type Block = { run: Merged; visible: number; chars: number };
type Call = { digest: ToolDigest; chars: number; block: Block };

/**
 * The size of digestBefore(inline, c) for growing cuts c, without building it: the messages are
 * walked once for all cuts (digestBefore walks everything before its cut each time, so a resumed
 * session deriving hundreds of cuts walked its history hundreds of times). The digest is the same
 * function of the same messages; only its length, JSON size and numbers are kept, updated as
 * messages are added and as the roll-up (which only grows) takes the oldest lines. `sizeAt` returns
 * undefined where this cannot answer exactly (a cut before one already measured, a call whose
 * result comes after the cut, a call inside a tool message): the caller then builds the digest.
 */
export class DigestSizes {
  private pos = 0;
  private broken = false;
  private count = 0;
  private chars = 0;
  private open: { merged: Merged | undefined; start: number } | undefined;
  private firstMerged: Merged | undefined;
  private readonly calls: Call[] = [];
  /** Prefix sums of the calls' lines as oldestOverBudget counts them. */
  private readonly budgetSums: number[] = [0];
  private latestResult = -1;
  private rolled = 0;
  private readonly tally = new RollUpTally();
  private readonly results = new Map<string, { at: number; part: AnyPart }>();
  private readonly toolNamed: (name: string) => DigestedTool | undefined;

  constructor(
    private readonly inline: readonly ModelMessage[],
    private readonly options: { maxDigestChars?: number; tools?: readonly DigestedTool[] },
  ) {
    this.toolNamed = toolsByName(options.tools);
    inline.forEach((m, at) => {
      if (m.role !== "tool" && m.role !== "assistant") return;
      for (const p of partsOf(m)) if (p.type === "tool-result" && !this.results.has(p.toolCallId as string)) this.results.set(p.toolCallId as string, { at, part: p });
    });
  }

  sizeAt(cut: number): DigestSize | undefined {
    if (this.broken || cut < this.pos) return undefined;
    while (this.pos < cut) this.add(this.pos++);
    if (this.broken || this.latestResult >= cut) return undefined;
    const n = this.calls.length;
    const rolled = this.rolledUp(n);
    if (rolled < this.rolled) return undefined;
    for (let k = this.rolled; k < rolled; k++) this.hide(this.calls[k]!);
    this.rolled = rolled;
    let { count, chars } = this;
    const first = this.firstMerged;
    if (rolled > 0 && first) {
      // The roll-up line opens the first merged run's first digest block (its own block when the run starts with text).
      const before = contribution(first);
      const line = lineChars(this.tally.line());
      const block = typeof first.first === "object" ? first.first : undefined;
      const addsBlock = !block || block.visible === 0;
      const parts = first.parts + (addsBlock ? 1 : 0);
      const partsChars = first.partsChars + (addsBlock ? BLOCK_CHARS : 0) + line;
      count += 1 - before.count;
      chars += MESSAGE_CHARS + partsChars + parts - 1 - before.chars;
    }
    return { length: count, chars, digested: n, rolledUp: rolled };
  }

  /** oldestOverBudget of the first `n` calls' digests. */
  private rolledUp(n: number): number {
    const budget = this.options.maxDigestChars;
    if (budget === undefined) return 0;
    const sums = this.budgetSums;
    let lo = 0;
    let hi = n; // the smallest k with sums[n] - sums[k] <= budget
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[n]! - sums[mid]! <= budget) hi = mid;
      else lo = mid + 1;
    }
    return lo === 0 ? 0 : Math.min(n, Math.ceil(lo / ROLLUP_STEP) * ROLLUP_STEP);
  }

  private add(i: number): void {
    const m = this.inline[i]!;
    if (m.role !== "assistant" && m.role !== "tool") {
      this.open = undefined;
      this.count++;
      this.chars += messageChars(m);
      return;
    }
    if (!this.open) this.open = { merged: undefined, start: i };
    const open = this.open;
    if (open.merged) return this.change(open.merged, () => this.feed(open.merged!, i));
    if (!hasToolContent(m)) {
      this.count++;
      this.chars += messageChars(m);
      return;
    }
    // The run gets tool content: its messages so far become one merged message.
    for (let j = open.start; j < i; j++) {
      this.count--;
      this.chars -= messageChars(this.inline[j]!);
    }
    const merged: Merged = { parts: 0, partsChars: 0, first: "none", last: undefined };
    open.merged = merged;
    this.firstMerged ??= merged;
    this.change(merged, () => {
      for (let j = open.start; j <= i; j++) this.feed(merged, j);
    });
  }

  /** Adds a message of a merged run as mergeRun does: text and other parts kept, calls as digest lines. */
  private feed(run: Merged, i: number): void {
    const m = this.inline[i]!;
    if (m.role === "tool") {
      if (partsOf(m).some((p) => p.type === "tool-call")) this.broken = true; // digestBefore counts it but never shows its line
      return;
    }
    if (typeof m.content === "string") return this.fixed(run, lengthOf(m, { type: "text", text: m.content }));
    for (const p of partsOf(m)) {
      if (p.type === "tool-call") this.call(run, p);
      else if (!TOOL_PART_TYPES.has(p.type)) this.fixed(run, lengthOf(p, p));
    }
  }

  private fixed(run: Merged, chars: number): void {
    if (run.first === "none") run.first = "fixed";
    run.last = undefined;
    run.parts++;
    run.partsChars += chars;
  }

  private call(run: Merged, part: AnyPart): void {
    let block = run.last;
    if (!block) {
      block = { run, visible: 0, chars: 0 };
      if (run.first === "none") run.first = block;
      run.last = block;
    }
    const result = this.results.get(part.toolCallId as string);
    if (result) this.latestResult = Math.max(this.latestResult, result.at);
    const digest = digestFor(part, result?.part, this.toolNamed(part.toolName as string));
    const call: Call = { digest, chars: lineChars(digest.line), block };
    this.calls.push(call);
    this.budgetSums.push(this.budgetSums[this.budgetSums.length - 1]! + digest.line.length + 3);
    if (block.visible === 0) {
      run.parts++;
      run.partsChars += BLOCK_CHARS;
    }
    block.visible++;
    block.chars += call.chars;
    run.partsChars += call.chars;
  }

  /** The call's line goes into the roll-up. */
  private hide(call: Call): void {
    this.tally.add(call.digest);
    const block = call.block;
    this.change(block.run, () => {
      block.visible--;
      block.chars -= call.chars;
      block.run.partsChars -= call.chars;
      if (block.visible === 0) {
        block.run.parts--;
        block.run.partsChars -= BLOCK_CHARS;
      }
    });
  }

  /** Applies a change to a merged run, keeping the totals. */
  private change(run: Merged, apply: () => void): void {
    const before = contribution(run);
    apply();
    const after = contribution(run);
    this.count += after.count - before.count;
    this.chars += after.chars - before.chars;
  }
}

/** What a merged run adds to the digest: one message, unless it has no parts. */
function contribution(run: Merged): { count: number; chars: number } {
  return run.parts === 0 ? { count: 0, chars: 0 } : { count: 1, chars: MESSAGE_CHARS + run.partsChars + run.parts - 1 };
}
