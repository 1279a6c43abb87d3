/**
 * Prune figures: the cost of preparing the wire for a 5,000-message history (target < 10 ms per
 * step) and the request size per step across a 300-step session pruned at the default threshold.
 * Prints a table; nothing is asserted. `bun scripts/bench-prune.ts`.
 */
import type { ModelMessage } from "ai";
import { pruneForWire } from "../lib/prune/prune.ts";
import { closeDanglingToolCalls, inlineHistory, repairHistory } from "../lib/prune/repair.ts";
import { DEFAULT_PRUNE_AT_TOKENS } from "../lib/config/defaults.ts";
import { validateHistory } from "../lib/prune/validate.ts";
import { idMaker, longToolLoop, realisticCall, rng, step } from "../spec/prune/fixtures.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const value = fn();
  return [value, performance.now() - t0];
};
const ms = (x: number) => `${x.toFixed(2)} ms`;
const rows: [string, string][] = [];

// 1. A 5,000-message history (2,499 steps of a reasoning model, every fifth step three parallel calls).
{
  const history = longToolLoop({ steps: 2_499, outputChars: 1500, seed: 7 });
  const mb = (JSON.stringify(history).length / 1e6).toFixed(1);
  const prepare = (h: readonly ModelMessage[]) => pruneForWire(closeDanglingToolCalls(h), { budgetTokens: DEFAULT_PRUNE_AT_TOKENS });
  const [first, cold] = time(() => prepare(history));
  // The loop calls it before every step with the history one step longer: only new messages are new work.
  const ids = idMaker("bench000");
  const rand = rng(3);
  const grown = [...history];
  const perStep: number[] = [];
  for (let i = 0; i < 80; i++) {
    grown.push(...step(ids, "responses", { reasoning: "r".repeat(300), calls: [realisticCall(rand)] }));
    perStep.push(time(() => prepare(grown))[1]);
  }
  const warming = perStep.slice(0, 10);
  const steady = perStep.slice(30).sort((a, b) => a - b);
  const [, inlineCold] = time(() => inlineHistory(history));
  const inlineWarm = median(Array.from({ length: 20 }, () => time(() => inlineHistory(history))[1]));
  const validate = median(Array.from({ length: 20 }, () => time(() => validateHistory(history))[1]));
  const repair = median(Array.from({ length: 20 }, () => time(() => repairHistory(history))[1]));
  const r = first.report;
  rows.push([`5,000-message history (${history.length} messages, ${mb} MB, ~${r.tokensBefore.toLocaleString("en")} tokens)`, `pruned to ${r.after} messages, ~${r.tokensAfter.toLocaleString("en")} tokens (${r.kept ?? "all"} messages kept whole, ${r.digested} calls digested, ${r.cuts} cuts)`]);
  rows.push(["  repair + prune, first call (cold: serialises every message, JIT cold)", ms(cold)]);
  rows.push(["  repair + prune, next 10 steps (JIT warming), median", ms(median(warming))]);
  rows.push(["  repair + prune per step, steady state (steps 31-80; target < 10 ms)", `median ${ms(median(steady))}, p90 ${ms(steady[Math.floor(steady.length * 0.9)]!)}`]);
  rows.push(["  inlineHistory (404 repair), cold / warm", `${ms(inlineCold)} / ${ms(inlineWarm)}`]);
  rows.push(["  validateHistory / repairHistory of a valid history (median of 20)", `${ms(validate)} / ${ms(repair)}`]);
}

// 2. A 300-step session at the default threshold: what each request weighs.
{
  const full = longToolLoop({ steps: 300, outputChars: 3000, seed: 11 });
  const samples = new Set([1, 25, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275, 300]);
  const lines: string[] = [];
  let sentPruned = 0;
  let sentFull = 0;
  let pruneSteps = 0;
  let maxTokens = 0;
  const stepTimes: number[] = [];
  // Step k sends the user message and the first k - 1 steps (2 messages each).
  for (let k = 1; k <= 300; k++) {
    const history = full.slice(0, 1 + 2 * (k - 1));
    const [{ report }, took] = time(() => pruneForWire(closeDanglingToolCalls(history), { budgetTokens: DEFAULT_PRUNE_AT_TOKENS }));
    stepTimes.push(took);
    sentPruned += report.tokensAfter;
    sentFull += report.tokensBefore;
    maxTokens = Math.max(maxTokens, report.tokensAfter);
    if (report.pruned) pruneSteps++;
    if (samples.has(k)) {
      lines.push(
        `  step ${String(k).padStart(3)}: ${String(report.before).padStart(3)} messages ~${report.tokensBefore.toLocaleString("en").padStart(7)} tokens → wire ${String(report.after).padStart(3)} messages ~${report.tokensAfter.toLocaleString("en").padStart(7)} tokens` +
          (report.pruned ? `  (${report.kept ? `${report.kept} kept, ${report.digested} digested, cut ${report.cuts}` : "reasoning stripped"})` : ""),
      );
    }
  }
  rows.push([`300-step session, threshold ${DEFAULT_PRUNE_AT_TOKENS.toLocaleString("en")}`, `${pruneSteps} steps pruned, largest request ~${maxTokens.toLocaleString("en")} tokens, prepare ${ms(median(stepTimes))} median per step`]);
  rows.push(["  tokens sent over the session, pruned / unpruned", `~${sentPruned.toLocaleString("en")} / ~${sentFull.toLocaleString("en")} (${((sentPruned / sentFull) * 100).toFixed(0)}%)`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`shiro bench-prune — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log("request size per step (estimated tokens, JSON length / 4):");
  for (const line of lines) console.log(line);
}
