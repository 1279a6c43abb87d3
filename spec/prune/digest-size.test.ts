import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { DigestSizes } from "../../lib/prune/digest-size.ts";
import { pruneForWire } from "../../lib/prune/prune.ts";
import { messageChars } from "../../lib/prune/tokens.ts";
import { digestBefore } from "../../lib/prune/tool-content.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { deepFreeze, longToolLoop, randomHistory, rng } from "./fixtures.ts";

/** digestBefore's digest, measured the way a cut measures it. */
function full(history: readonly ModelMessage[], cut: number, maxDigestChars: number) {
  const d = digestBefore(history, cut, { maxDigestChars });
  return { length: d.messages.length, chars: d.messages.reduce((n, m) => n + messageChars(m), 0), digested: d.digested, rolledUp: d.rolledUp };
}

/** Assistant messages with plain string content and runs of calls with no text between them, which merge differently. */
function oddHistory(seed: number): ModelMessage[] {
  const rand = rng(seed);
  const out: ModelMessage[] = [{ role: "user", content: "go" }];
  for (let i = 0; i < 120; i++) {
    const id = `c${seed}_${i}`;
    const r = rand.next();
    if (r < 0.1) out.push({ role: "user", content: `more ${i}` });
    else if (r < 0.2) out.push({ role: "assistant", content: `thinking aloud "${i}"\n` });
    else if (r < 0.25) out.push({ role: "assistant", content: [{ type: "text", text: `no tools ${i}` }] });
    const call = { type: "tool-call" as const, toolCallId: id, toolName: rand.pick(["bash", "read_file", "edit_file"]), input: { command: `echo "é ${i}"`, path: `src/${i % 7}.ts` } };
    out.push({ role: "assistant", content: rand.chance(0.5) ? [call] : [{ type: "text", text: `step ${i} \u2028` }, call] });
    out.push({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: call.toolName, output: { type: "text", value: "x".repeat(rand.int(0, 500)) } }] });
  }
  return out;
}

describe("DigestSizes: a digest measured without building it", () => {
  test("at every growing cut it measures what digestBefore builds (random histories, roll-ups, odd shapes)", () => {
    let answered = 0;
    let rolled = 0;
    const histories = [
      ...Array.from({ length: 60 }, (_, s) => randomHistory(s + 1, { maxTurns: 6, maxSteps: 20 })),
      ...Array.from({ length: 20 }, (_, s) => oddHistory(s + 1)),
      longToolLoop({ steps: 300, outputChars: 100 }),
    ];
    for (const [h, history] of histories.entries()) {
      deepFreeze(history);
      for (const maxDigestChars of [Infinity, 2_000, 300]) {
        const sizes = new DigestSizes(history, { maxDigestChars });
        for (let cut = 1; cut <= history.length; cut += 1 + (h % 3)) {
          const size = sizes.sizeAt(cut);
          if (!size) continue;
          answered++;
          if (size.rolledUp > 0) rolled++;
          expect({ h, maxDigestChars, cut, ...size }).toEqual({ h, maxDigestChars, cut, ...full(history, cut, maxDigestChars) });
        }
      }
    }
    expect(answered).toBeGreaterThan(5_000);
    expect(rolled).toBeGreaterThan(1_000);
  });

  test("a cut before one already measured is left to digestBefore", () => {
    const history = longToolLoop({ steps: 10 });
    const sizes = new DigestSizes(history, {});
    expect(sizes.sizeAt(9)).toBeDefined();
    expect(sizes.sizeAt(5)).toBeUndefined();
  });
});

describe("a resumed session's first request", () => {
  test("the whole history pruned at once gives the wire the live loop sent and the one every digest built in full gives, on random histories", () => {
    const tools = toolsFor({ notebook: createNotebook() });
    for (let seed = 1; seed <= 40; seed++) {
      const history = deepFreeze(randomHistory(seed, { maxTurns: 8, maxSteps: 25 }));
      const total = JSON.stringify(history).length / 4;
      for (const fraction of [0.5, 0.2, 0.05]) {
        const options = { budgetTokens: Math.floor(total * fraction), tools };
        // The live loop: one request after each user message or step, each reusing the cuts before it.
        let live: ReturnType<typeof pruneForWire> | undefined;
        for (let k = 1; k <= history.length; k++) {
          const last = history[k - 1]!.role;
          if ((last === "user" || last === "tool") && history[k]?.role !== "tool") live = pruneForWire(history.slice(0, k), options);
        }
        const end = history.length;
        const lastRole = history[end - 1]!.role;
        if (!(lastRole === "user" || lastRole === "tool")) live = pruneForWire(history, options);
        // A new process: copies of every message, nothing cached, every cut derived in one call.
        const resumed = pruneForWire(structuredClone(history), options);
        // The reference: every digest a cut tries built in full.
        const built = pruneForWire(structuredClone(history), { ...options, buildDigests: true });
        const wire = (r: ReturnType<typeof pruneForWire>) => ({ seed, fraction, report: r.report, wire: JSON.stringify(r.messages) });
        expect(wire(resumed)).toEqual(wire(built));
        expect(wire(live!)).toEqual(wire(built));
      }
    }
  }, 60_000);
});
