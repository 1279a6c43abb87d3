/**
 * `bun run bench`: start-up and loop figures for the compiled binary against the local fake
 * server. Prints a table; nothing here is asserted (figures vary by machine).
 */
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../spec/support/fake-openai.ts";
import { JIT_POLICY } from "./compile.ts";

const root = join(import.meta.dir, "..");
const bin = process.env.SHIRO_BIN ?? join(root, "dist", "shiro");
if (!process.env.SHIRO_BIN) {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { stdout: "ignore", stderr: "inherit" });
  if (build.exitCode !== 0) process.exit(1);
}
const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-")));
// A stated context window: shiro asks a local server nothing about the model, so the figures are the loop's own.
const baseEnv = { PATH: process.env.PATH ?? "", HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_CONTEXT_WINDOW: "1000000" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: [string, string][] = [];

// The floors, compiled here with the same Bun and the same options as shiro (its JIT policy
// included): a bare program that prints a version, and the smallest AI SDK loop with one bash
// tool (scripts/floor/).
const floorDir = join(home, "floor");
async function compileFloor(name: string): Promise<string> {
  const outfile = join(floorDir, name);
  const result = await Bun.build({ entrypoints: [join(import.meta.dir, "floor", `${name}.ts`)], compile: { outfile, autoloadBunfig: false, autoloadDotenv: false, jitPolicy: JIT_POLICY }, minify: true, bytecode: true, format: "esm", splitting: true, target: "bun" });
  if (!result.success) throw new Error(result.logs.map(String).join("\n"));
  return outfile;
}
const bare = await compileFloor("bare");
const floor = await compileFloor("loop");

type Run = { ms: number; rss: number; code: number };
async function timed(cmd: string[], env: Record<string, string>): Promise<Run> {
  const t0 = performance.now();
  const child = Bun.spawn(cmd, { cwd: home, env, stdout: "ignore", stderr: "ignore" });
  let rss = 0;
  let done = false;
  const exited = child.exited.then((code) => ((done = true), code));
  // resourceUsage().maxRSS is the largest child so far (the build among them), so the child's own
  // peak is read from /proc while it runs: VmHWM only grows, the last reading is close to the peak.
  while (!done) {
    rss = Math.max(rss, peakRss(child.pid));
    await Promise.race([exited, Bun.sleep(2)]);
  }
  return { ms: performance.now() - t0, rss, code: await exited };
}
function peakRss(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

// 1. --version against the bare program, interleaved so both see the same machine.
{
  const ours: Run[] = [];
  const base: Run[] = [];
  for (let i = 0; i < 20; i++) {
    ours.push(await timed([bin, "--version"], baseEnv));
    base.push(await timed([bare], baseEnv));
  }
  const [o, b] = [median(ours.map((r) => r.ms)), median(base.map((r) => r.ms))];
  rows.push(["shiro --version (median of 20)", `${o.toFixed(1)} ms, peak RSS ${mb(Math.max(...ours.map((r) => r.rss)))}`]);
  rows.push(["  floor: a bare compiled Bun program", `${b.toFixed(1)} ms → shiro is ${ratio(o, b)} (goal ≤ 1.5×)`]);
}

// 2. -p: process start to the first request reaching the server.
{
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const server = await startFakeServer({ replies: [{ text: "ok" }] });
    const t0 = performance.now();
    const child = Bun.spawn([bin, "-p", "hi"], { cwd: home, env: { ...baseEnv, SHIRO_BASE_URL: server.url }, stdout: "ignore", stderr: "ignore" });
    while (server.requests.length === 0 && performance.now() - t0 < 10_000) await Bun.sleep(1);
    times.push(performance.now() - t0);
    await child.exited;
    await server.close();
  }
  rows.push(["shiro -p: start to first request (median of 10)", `${median(times).toFixed(1)} ms`]);
}

// 3. A 20-step bash loop: shiro (sandbox off, then on) and the floor, on the same fake server and
// wire (Chat Completions), median of 9 runs each. Distinct commands: identical calls would trip the
// repeat guard and not run.
{
  const steps = 20;
  const replies = (): Reply[] => [
    ...Array.from({ length: steps - 1 }, (_, i): Reply => ({ toolCalls: [{ name: "bash", input: { command: `echo step-${i}` } }] })),
    { text: "done" },
  ];
  /** A run, and the median time between two requests reaching the server (a step, its command included). */
  async function loop(cmd: (url: string) => string[]): Promise<Run & { step: number }> {
    const server = await startFakeServer({ replies: replies() });
    const arrivals: number[] = [];
    const push = server.requests.push.bind(server.requests);
    server.requests.push = (...items) => (arrivals.push(performance.now()), push(...items));
    try {
      const run = await timed(cmd(server.url), { ...baseEnv, SHIRO_BASE_URL: server.url });
      // From the second step on: the first command in the sandbox also waits for the sandbox to start.
      const gaps = arrivals.slice(2).map((at, i) => at - arrivals[i + 1]!);
      return { ...run, step: gaps.length > 0 ? median(gaps) : 0 };
    } finally {
      await server.close();
    }
  }
  const shiroArgs = ["-p", "loop", "--max-steps", String(steps), "--yolo", "--api", "chat"];
  const runs = { off: [] as (Run & { step: number })[], on: [] as (Run & { step: number })[], floor: [] as Run[] };
  // Nine rounds; in each, the floor runs right after shiro without the sandbox, so the two runs
  // a ratio pairs see the same machine (this one's speed drifts by a third within minutes).
  for (let i = 0; i < 9; i++) {
    runs.off.push(await loop(() => [bin, ...shiroArgs, "--no-sandbox"]));
    runs.floor.push(await loop((url) => [floor, url, "loop", String(steps)]));
    runs.on.push(await loop(() => [bin, ...shiroArgs]));
  }
  const ms = (xs: Run[]) => median(xs.map((r) => r.ms));
  const [off, on, base] = [ms(runs.off), ms(runs.on), ms(runs.floor)];
  const codes = [...runs.off, ...runs.on, ...runs.floor].map((r) => r.code).filter((c) => c !== 0);
  rows.push([`${steps}-step bash loop, sandbox off${codes.length ? ` (non-zero exits: ${codes.join(",")})` : ""}`, `${off.toFixed(0)} ms, peak RSS ${mb(Math.max(...runs.off.map((r) => r.rss)))} (goal ≤ 80 MB)`]);
  // Each shiro run beside the floor run made right after it: the machine's speed drifts between runs,
  // so the median of these pairs says more than the ratio of the two medians.
  const paired = median(runs.off.map((r, i) => r.ms / runs.floor[i]!.ms));
  rows.push(["  floor: the smallest AI SDK loop, one bash tool", `${base.toFixed(0)} ms, peak RSS ${mb(Math.max(...runs.floor.map((r) => r.rss)))} → shiro is ${ratio(off, base)}, ${paired.toFixed(2)}× run by run (goal ≤ 1.25×)`]);
  // The sandbox's cost apart: per command once it runs (a step in it against a step without), and
  // its start (bubblewrap, the runner, the login shell), paid once per session by the first command.
  const perCommand = median(runs.on.map((r) => r.step)) - median(runs.off.map((r) => r.step));
  const start = on - off - perCommand * (steps - 1);
  rows.push(["  the same loop in the sandbox", `${on.toFixed(0)} ms → the sandbox costs ${perCommand.toFixed(1)} ms per command (goal ≤ 5 ms), and ${start.toFixed(0)} ms once to start`]);
}

// 4. Scale: peak RSS after 20 and 1,000 steps of the same kind of loop, and shiro's own time per
// step early and late; autosaves of a 1 MB and a 50 MB session; resuming the 50 MB one.
const { benchScale } = await import("./bench-scale.ts");
rows.push(...(await benchScale(bin, baseEnv)));
const { benchSessionScale } = await import("./bench-session-scale.ts");
rows.push(...(await benchSessionScale(bin)));

// 5. Library figures: project memory.
const { benchMemory } = await import("./bench-memory.ts");
rows.push(...(await benchMemory()));

const width = Math.max(...rows.map(([k]) => k.length));
console.log(`shiro bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);

// 6. Benches that run as their own scripts (sessions, pruning, the prompt cache over a 300-step task).
for (const script of ["bench-sessions.ts", "bench-prune.ts", "bench-cache.ts"]) {
  const path = join(import.meta.dir, script);
  if (!(await Bun.file(path).exists())) continue;
  console.log("");
  Bun.spawnSync([process.execPath, path], { stdout: "inherit", stderr: "inherit" });
}
