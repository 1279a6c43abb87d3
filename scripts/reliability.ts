/**
 * `bun scripts/reliability.ts`: every reliability check at full size, each bounded in count and
 * time, against the compiled binary (built into a temp directory with scripts/build.ts's options,
 * so dist/ is left alone) unless SHIRO_BIN is set or `--source` is given. Prints each check's
 * figure (runs, failures, files checked, time, and what it measured) as it finishes, then a table.
 * Exits 1 if any check failed. The checkers live in spec/support/reliability/; their reduced
 * versions run in `bun test` (spec/reliability); what each proves is in docs/reliability.md.
 *
 *   bun scripts/reliability.ts                  # everything, full size
 *   bun scripts/reliability.ts --only kill,fuzz # some checks
 *   bun scripts/reliability.ts --seed 7         # another seed for kill and fuzz
 *   bun scripts/reliability.ts --json out.json  # also write the figures as JSON
 */
import { compileShiro } from "./compile.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runContinueConcurrency, runMemoryConcurrency } from "../spec/support/reliability/concurrency.ts";
import { runFaultCheck } from "../spec/support/reliability/faults.ts";
import { runFuzzCheck } from "../spec/support/reliability/fuzz.ts";
import { runKillCheck } from "../spec/support/reliability/kill.ts";
import { runLongTaskCheck } from "../spec/support/reliability/long-task.ts";
import { runMisbehaviourCheck } from "../spec/support/reliability/misbehaviour.ts";
import { runSecretsCheck } from "../spec/support/reliability/secrets.ts";
import type { Figure } from "../spec/support/reliability/support.ts";

const root = join(import.meta.dir, "..");
const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = flag("--only")?.split(",");
const seed = Number(flag("--seed") ?? 1);
const jsonOut = flag("--json");

/** Full sizes, and a time budget per check past which it stops starting new runs (and says so). */
const CHECKS: { name: string; run: () => Promise<Figure> }[] = [
  { name: "kill", run: () => runKillCheck({ runs: 200, seed, windowMs: 1500, budgetMs: 12 * 60_000 }) },
  { name: "concurrency-memory", run: () => runMemoryConcurrency({ rounds: 10 }) },
  { name: "concurrency-continue", run: () => runContinueConcurrency({ rounds: 10 }) },
  { name: "fuzz", run: () => runFuzzCheck({ files: 1_000, seed, hugeBytes: 5 * 1024 * 1024, budgetMs: 15 * 60_000 }) },
  { name: "faults", run: () => runFaultCheck({ rounds: 3, wires: "both" }) },
  { name: "misbehaviour", run: () => runMisbehaviourCheck({ wires: "both" }) },
  { name: "long-task", run: () => runLongTaskCheck({ steps: 300, threshold: 6_000 }) },
  { name: "secrets", run: () => runSecretsCheck() },
];

/** The directory of a binary this script built, removed at the end (it is over 100 MB). */
let builtDir: string | undefined;

async function binary(): Promise<string> {
  if (process.env.SHIRO_BIN) return process.env.SHIRO_BIN;
  builtDir = mkdtempSync(join(tmpdir(), "shiro-reliability-bin-"));
  const outfile = join(builtDir, "shiro");
  // The same build as scripts/build.ts: the figures are for what ships.
  try {
    await compileShiro(outfile);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  return outfile;
}

function printFigure(f: Figure) {
  const status = f.failures === 0 ? "ok" : `${f.failures} FAILED`;
  console.log(`\n== ${f.check}: ${status} — ${f.runs} runs, ${f.failures} failures, ${f.filesChecked} files checked, ${(f.ms / 1000).toFixed(1)} s`);
  for (const [k, v] of Object.entries(f.notes)) console.log(`   ${k}: ${v}`);
  for (const p of f.problems.slice(0, 20)) console.log(`   ✗ ${p}`);
  if (f.problems.length > 20) console.log(`   … and ${f.problems.length - 20} more`);
}

const started = performance.now();
if (!argv.includes("--source")) process.env.SHIRO_BIN = await binary();
const target = process.env.SHIRO_BIN ? `binary ${process.env.SHIRO_BIN}` : "sources (bun cmd/shiro.ts)";
console.log(`shiro reliability — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, ${navigator.hardwareConcurrency} cores, bun ${Bun.version}, ${target}, seed ${seed}`);

const figures: Figure[] = [];
for (const check of CHECKS) {
  if (only && !only.includes(check.name)) continue;
  const f = await check.run();
  figures.push({ ...f, ms: f.ms });
  printFigure(f);
}

const total = (performance.now() - started) / 1000;
console.log("\ncheck                              runs  failures  files checked  time");
for (const f of figures) {
  console.log(`${f.check.padEnd(34)} ${String(f.runs).padStart(5)} ${String(f.failures).padStart(9)} ${String(f.filesChecked).padStart(14)}  ${(f.ms / 1000).toFixed(1)} s`);
}
const failures = figures.reduce((n, f) => n + f.failures, 0);
console.log(`total: ${figures.reduce((n, f) => n + f.runs, 0)} runs, ${failures} failures, ${figures.reduce((n, f) => n + f.filesChecked, 0)} files checked, ${total.toFixed(0)} s`);
if (builtDir) rmSync(builtDir, { recursive: true, force: true });
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), target, seed, totalSeconds: Math.round(total), figures }, null, 2) + "\n");
process.exit(failures === 0 ? 0 : 1);
