import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { DIGEST_HEADER } from "../../lib/prune/digest.ts";
import { MAX_DIGEST_SHARE, MIN_KEPT_MESSAGES, RECUT_TO, compactedEvent, pruneForWire, stripReasoning } from "../../lib/prune/prune.ts";
import { detachOrphanedItems, dropOrphanedResults, stripItemIds } from "../../lib/prune/repair.ts";
import { estimateTokens } from "../../lib/prune/tokens.ts";
import { DEFAULT_PRUNE_AT_TOKENS } from "../../lib/config/defaults.ts";
import { pruneToolContent } from "../../lib/prune/tool-content.ts";
import { validateHistory } from "../../lib/prune/validate.ts";
import { plainTheme, renderEvent } from "../../lib/render.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { callIdsIn, deepFreeze, idMaker, itemIdsIn, longToolLoop, randomHistory, step, user } from "./fixtures.ts";

const partsOf = (m: ModelMessage) => (typeof m.content === "string" ? [] : (m.content as any[]));
const digestLines = (messages: ModelMessage[]) =>
  messages.flatMap(partsOf).flatMap((p) => (p.type === "text" && p.text.startsWith(DIGEST_HEADER) ? p.text.split("\n").slice(1) : []));
const hasReasoning = (messages: ModelMessage[]) => messages.flatMap(partsOf).some((p) => p.type === "reasoning");
/** The wire before each request of a growing history (one step more each time), as a live loop prunes it. */
const requestsOf = (history: ModelMessage[], options: Parameters<typeof pruneForWire>[1]) => {
  const out: ReturnType<typeof pruneForWire>[] = [];
  for (let k = 1; k <= history.length; k++) {
    const last = history[k - 1]!.role;
    if ((last === "user" || last === "tool") && history[k]?.role !== "tool") out.push(pruneForWire(history.slice(0, k), options));
  }
  return out;
};

describe("pruneForWire", () => {
  test("under the threshold the history goes out unchanged (the same array)", () => {
    const history = deepFreeze(longToolLoop({ steps: 20 }));
    const tokens = estimateTokens(history);
    const { messages, report } = pruneForWire(history, { budgetTokens: tokens });
    expect(messages).toBe(history);
    expect(report).toEqual({ pruned: false, before: history.length, threshold: tokens, after: history.length, folded: 0, tokensBefore: tokens, tokensAfter: tokens, strippedReasoning: false, digested: 0, rolledUp: 0, fits: true, cuts: 0, recut: false });
    expect(compactedEvent(report)).toBeUndefined();
  });

  test("reasoning is stripped first; when that is enough every tool call and result is kept, inline", () => {
    const history = deepFreeze(longToolLoop({ steps: 40, encrypted: true }));
    const strippedTokens = estimateTokens(stripReasoning(history));
    // recutTo 1: a cut aims at the threshold itself, which stripping reasoning reaches.
    const { messages, report } = pruneForWire(history, { budgetTokens: strippedTokens, recutTo: 1 });
    expect(report).toMatchObject({ pruned: true, strippedReasoning: true, digested: 0, fits: true, cuts: 1 });
    expect(report.kept).toBeUndefined();
    // The count stays the same, so the line says what was left out instead of "40 messages pruned to 40".
    expect(report.after).toBe(report.before);
    expect(renderEvent(compactedEvent(report)!, plainTheme)).toBe(`context compacted: older reasoning left out to keep the request under ${Math.round(strippedTokens / 1000)}k tokens`);
    expect(hasReasoning(messages)).toBe(false);
    expect(itemIdsIn(messages)).toEqual([]);
    expect(callIdsIn(messages)).toEqual(callIdsIn(history));
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(history.filter((m) => m.role === "tool").length);
    expect(validateHistory(messages)).toEqual([]);
  });

  test("a cut brings the wire down to about half the threshold and stays put until the wire passes the threshold again", () => {
    // Every result is big, so the digest stays small and the kept tail decides the size.
    const ids = idMaker();
    const history = deepFreeze([
      user("read everything"),
      ...Array.from({ length: 120 }, (_, i) => step(ids, "responses", { reasoning: "r", calls: [{ name: "read_file", input: { path: `f${i}.ts` }, output: "x".repeat(8_000) }] })).flat(),
    ]);
    const threshold = 60_000;
    const stepTokens = estimateTokens(stripReasoning(history.slice(1, 3)));
    const requests = requestsOf(history, { budgetTokens: threshold });
    let cutsSeen = 0;
    let previous: ModelMessage[] | undefined;
    for (const { messages, report } of requests) {
      expect(report.tokensAfter).toBeLessThanOrEqual(threshold);
      if (report.recut) {
        cutsSeen++;
        // Deep enough for the target, and one step shallower would not have been.
        expect(report.tokensAfter).toBeLessThanOrEqual(threshold * RECUT_TO);
        expect(report.tokensAfter).toBeGreaterThan(threshold * RECUT_TO - stepTokens - 100);
      } else if (previous && report.cuts > 0) {
        // The same cut: the previous request is this one's prefix, byte for byte.
        expect(JSON.stringify(messages).startsWith(JSON.stringify(previous).slice(0, -1))).toBe(true);
      }
      previous = messages;
    }
    const last = requests[requests.length - 1]!.report;
    expect(last.cuts).toBe(cutsSeen);
    // The wire is measured, not the history: about one cut per half-threshold of new output.
    const total = estimateTokens(stripReasoning(history));
    expect(cutsSeen).toBeGreaterThan(2);
    expect(cutsSeen).toBeLessThanOrEqual(Math.ceil(total / (threshold * (1 - RECUT_TO))) + 1);
  });

  test("given the same threshold the cuts follow from the history alone: a resumed process derives the same wire", () => {
    const history = longToolLoop({ steps: 200, outputChars: 3000, seed: 5 });
    requestsOf(history, { budgetTokens: 30_000 });
    const live = pruneForWire(history, { budgetTokens: 30_000 });
    // A copy of every message: nothing cached by identity can be reused, as in a new process.
    const resumed = pruneForWire(structuredClone(history), { budgetTokens: 30_000 });
    expect(resumed.report.cuts).toBe(live.report.cuts);
    expect(JSON.stringify(resumed.messages)).toBe(JSON.stringify(live.messages));
    expect(live.report.cuts).toBeGreaterThan(3);
  });

  test("when even the deepest cut is too big, the smallest wire is sent and the report says so", () => {
    const history = deepFreeze(longToolLoop({ steps: 30 }));
    const { messages, report } = pruneForWire(history, { budgetTokens: 10 });
    expect(report).toMatchObject({ pruned: true, fits: false });
    // The last step or so: at least MIN_KEPT_MESSAGES, moved back to keep a parallel group whole.
    expect(report.kept).toBeGreaterThanOrEqual(MIN_KEPT_MESSAGES);
    expect(report.kept).toBeLessThan(MIN_KEPT_MESSAGES + 4);
    expect(report.tokensAfter).toBe(estimateTokens(messages));
    expect(validateHistory(messages)).toEqual([]);
  });

  test("chat-style history without reasoning goes straight to a cut", () => {
    const history = deepFreeze(longToolLoop({ steps: 80, style: "chat" }));
    const { messages, report } = pruneForWire(history, { budgetTokens: Math.floor(estimateTokens(history) / 3) });
    expect(report.strippedReasoning).toBe(false);
    expect(report.kept).toBeDefined();
    expect(report.fits).toBe(true);
    expect(validateHistory(messages)).toEqual([]);
  });

  test("a cut inside a parallel group moves back so the calls keep their results", () => {
    const ids = idMaker();
    const ls = (n: number) => ({ name: "bash", input: { command: `ls ${n}` }, output: "Exit code 0\n" + "x".repeat(2000) });
    const history = deepFreeze([
      user("go"),
      ...step(ids, "responses", { reasoning: "r", calls: [ls(1)] }),
      ...step(ids, "responses", { reasoning: "r", text: "three at once", calls: [ls(2), ls(3), ls(4)] }),
      ...step(ids, "responses", { reasoning: "r", text: "done" }),
    ]);
    // Keeping the last 2 would start the window at the tool message answering the three calls.
    const { messages, report } = pruneForWire(history, { budgetTokens: 100, minKept: 2 });
    expect(validateHistory(messages)).toEqual([]);
    expect(callIdsIn(messages)).toEqual(callIdsIn(history).slice(1));
    expect(report.digested).toBe(1);
    expect(digestLines(messages)).toEqual(['- bash "ls 1" → exit 0, 1 line of output']);
  });

  test("the digest lines read the session's tool definitions when given them", () => {
    const ids = idMaker();
    const grep = (n: number) => ({ name: "grep", input: { pattern: `p${n}`, path: "src" }, output: "src/a.ts:1: x\n".repeat(200) });
    const history = deepFreeze([user("go"), ...step(ids, "chat", { calls: [grep(1)] }), ...step(ids, "chat", { calls: [grep(2)] }), ...step(ids, "chat", { text: "done" })]);
    const tools = toolsFor({ notebook: createNotebook() });
    expect(digestLines(pruneForWire(history, { budgetTokens: 100, minKept: 2, tools }).messages)).toEqual(['- grep "p1" in src → 200 matches']);
    expect(digestLines(pruneForWire(history, { budgetTokens: 100, minKept: 2 }).messages)).toEqual(['- grep "p1" → 200 lines']);
  });

  test("a 300-step session at the default threshold: fits, digests what it removed, reports once-per-turn numbers", () => {
    const history = deepFreeze(longToolLoop({ steps: 300, outputChars: 3000 }));
    expect(estimateTokens(stripReasoning(history))).toBeGreaterThan(120_000);
    const { messages, report } = pruneForWire(history, { budgetTokens: DEFAULT_PRUNE_AT_TOKENS });
    expect(report.fits).toBe(true);
    expect(report.tokensAfter).toBeLessThanOrEqual(120_000);
    expect(report.kept).toBeDefined();
    expect(validateHistory(messages)).toEqual([]);
    expect(itemIdsIn(messages)).toEqual([]);
    expect(messages.filter((m) => m.role === "user")).toEqual(history.filter((m) => m.role === "user"));
    // Nothing the model did vanishes: each call is on the wire or in a digest line.
    const lines = digestLines(messages);
    expect(lines).toHaveLength(report.digested);
    expect(callIdsIn(messages).length + report.digested).toBe(callIdsIn(history).length);
    // The digest is small: a line per call, well under the threshold it has to fit in.
    const digestChars = lines.join("\n").length;
    expect(digestChars / lines.length).toBeLessThan(120);
    expect(digestChars / 4).toBeLessThan(120_000 / 10);
    const event = compactedEvent(report)!;
    expect(event).toEqual({ type: "compacted", before: history.length, after: messages.length });
    expect(renderEvent(event, plainTheme)).toBe(`context compacted: ${history.length} messages pruned to ${messages.length} on the wire`);
  });

  test("the digested wire still fits when the threshold is tight", () => {
    const history = deepFreeze(longToolLoop({ steps: 300 }));
    for (const threshold of [6_000, 10_000, 20_000, 40_000, 80_000]) {
      const { messages, report } = pruneForWire(history, { budgetTokens: threshold });
      expect({ threshold, fits: report.fits }).toEqual({ threshold, fits: true });
      expect(estimateTokens(messages)).toBeLessThanOrEqual(threshold);
      expect(Math.ceil(JSON.stringify(messages).length / 4)).toBe(report.tokensAfter);
    }
  });

  test("a very long session: the oldest digest lines are rolled up so the digest keeps to its share", () => {
    const history = deepFreeze(longToolLoop({ steps: 4_000, outputChars: 800 }));
    const { messages, report } = pruneForWire(history, { budgetTokens: DEFAULT_PRUNE_AT_TOKENS });
    expect(report).toMatchObject({ fits: true });
    expect(report.rolledUp).toBeGreaterThan(0);
    expect(report.rolledUp % 20).toBe(0); // the boundary moves in steps, so the prefix rarely changes
    const lines = digestLines(messages);
    expect(lines).toHaveLength(report.digested - report.rolledUp + 1);
    expect(lines[0]).toMatch(/^- [\d,]+ earlier calls, condensed: /);
    expect(lines[0]).toContain("edit_file ×");
    expect(lines[0]!.length).toBeLessThan(600);
    expect(lines.join("\n").length).toBeLessThanOrEqual(120_000 * 4 * MAX_DIGEST_SHARE + 600);
    expect(validateHistory(messages)).toEqual([]);
  });

  test("between cuts each request starts with the previous one, byte for byte (prompt caching)", () => {
    const history = longToolLoop({ steps: 120 });
    const requests = requestsOf(history, { budgetTokens: 30_000 });
    let kept = 0;
    for (let i = 1; i < requests.length; i++) {
      if (requests[i]!.report.recut || requests[i]!.report.cuts === 0) continue;
      expect(JSON.stringify(requests[i]!.messages).startsWith(JSON.stringify(requests[i - 1]!.messages).slice(0, -1))).toBe(true);
      kept++;
    }
    expect(kept).toBeGreaterThan(requests.length / 2);
  });

  test("property: over many random histories and thresholds, no call is separated from its result, no user message is lost, the input is untouched", () => {
    let pruned = 0;
    let laddered = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const history = deepFreeze(randomHistory(seed, { maxTurns: 6, maxSteps: 20 }));
      const snapshot = JSON.stringify(history);
      const total = estimateTokens(history);
      const users = history.filter((m) => m.role === "user");
      for (const fraction of [1.1, 1, 0.9, 0.6, 0.3, 0.1, 0.02, 0]) {
        const thresholdTokens = Math.floor(total * fraction);
        const { messages, report } = pruneForWire(history, { budgetTokens: thresholdTokens });
        const where = { seed, fraction };
        expect({ ...where, violations: validateHistory(messages, { allowPendingCalls: true }) }).toEqual({ ...where, violations: [] });
        expect(messages.filter((m) => m.role === "user")).toEqual(users);
        expect(report.after).toBe(messages.length);
        expect(report.tokensAfter).toBe(Math.ceil(JSON.stringify(messages).length / 4));
        expect(report.fits).toBe(report.tokensAfter <= thresholdTokens);
        if (!report.pruned) {
          expect(messages).toBe(history);
          continue;
        }
        pruned++;
        if (report.kept !== undefined) laddered++;
        expect(itemIdsIn(messages)).toEqual([]);
        expect(hasReasoning(messages)).toBe(false);
        expect(callIdsIn(messages).length + report.digested).toBe(callIdsIn(history).length);
        expect(digestLines(messages)).toHaveLength(report.digested - report.rolledUp + (report.rolledUp > 0 ? 1 : 0));
      }
      expect(JSON.stringify(history)).toBe(snapshot);
    }
    expect(pruned).toBeGreaterThan(1000);
    expect(laddered).toBeGreaterThan(500);
  }, 30_000);
});

describe("a conversation a digest cannot shorten", () => {
  test("plain text over the threshold is sent as it is, with no new cut at every request (a 50,000-message session resumed in under a second, not 90 s)", () => {
    const history = deepFreeze(Array.from({ length: 4_000 }, (_, i): ModelMessage => ({ role: i % 2 ? "assistant" : "user", content: `message ${i} ${"text ".repeat(8)}` })));
    const { messages, report } = pruneForWire(history, { budgetTokens: 5_000 });
    expect(messages.filter((m) => m.role === "user")).toHaveLength(2_000); // user messages are never removed
    expect(report.cuts).toBeLessThanOrEqual(1);
    expect(report.fits).toBe(false);
    // Tool content later in the history is digested again once there is enough of it to matter.
    const withTools = deepFreeze([...history, ...longToolLoop({ steps: 40 })]);
    const again = pruneForWire(withTools, { budgetTokens: 5_000 });
    expect(again.report.cuts).toBeGreaterThan(report.cuts);
    expect(again.report.digested).toBeGreaterThan(0);
  });
});

test("a pruning that kept the message count says what it folded, in how many messages, under what size", () => {
  const report = { pruned: true, before: 3, after: 3, folded: 3, threshold: 30_000, tokensBefore: 40_000, tokensAfter: 20_000, strippedReasoning: true, kept: 1, digested: 2, rolledUp: 0, fits: true, cuts: 1, recut: true };
  const event = compactedEvent(report)!;
  expect(renderEvent(event, plainTheme)).toBe("context compacted: older tool output folded in 3 messages to keep the request under 30k tokens");
  // Fewer messages on the wire: the seed's form.
  expect(renderEvent(compactedEvent({ ...report, before: 192, after: 15 })!, plainTheme)).toBe("context compacted: 192 messages pruned to 15 on the wire");
});
