/**
 * `bun run bench`: start-up and loop figures for the compiled binary against the local fake
 * server. Prints a table; nothing here is asserted (figures vary by machine).
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../spec/support/fake-openai.ts";

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

// 1. --version: process start to exit.
{
  const times: number[] = [];
  let rss = 0;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const child = Bun.spawn([bin, "--version"], { env: baseEnv, stdout: "ignore" });
    await child.exited;
    times.push(performance.now() - t0);
    rss = Math.max(rss, child.resourceUsage()?.maxRSS ?? 0);
  }
  rows.push(["shiro --version (median of 20)", `${median(times).toFixed(1)} ms, peak RSS ${(rss / 1024 / 1024).toFixed(0)} MB`]);
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

// 3. A 20-step tool loop: per-step overhead and peak memory.
{
  const steps = 20;
  const replies: Reply[] = [];
  // Distinct inputs: identical calls would trip the repeat guard and not run.
  for (let i = 0; i < steps - 1; i++) replies.push({ toolCalls: [{ name: "grep", input: { pattern: `needle-${i}` } }] });
  replies.push({ text: "done" });
  const single = await startFakeServer({ replies: [{ text: "ok" }] });
  const t1 = performance.now();
  await Bun.spawn([bin, "-p", "hi"], { cwd: home, env: { ...baseEnv, SHIRO_BASE_URL: single.url }, stdout: "ignore", stderr: "ignore" }).exited;
  const oneStep = performance.now() - t1;
  await single.close();

  const server = await startFakeServer({ replies });
  const t0 = performance.now();
  const child = Bun.spawn([bin, "-p", "loop", "--max-steps", String(steps)], { cwd: home, env: { ...baseEnv, SHIRO_BASE_URL: server.url }, stdout: "ignore", stderr: "ignore" });
  const code = await child.exited;
  const total = performance.now() - t0;
  await server.close();
  rows.push([`${steps}-step tool loop (exit ${code})`, `${total.toFixed(0)} ms total, ${((total - oneStep) / (steps - 1)).toFixed(1)} ms per extra step, peak RSS ${((child.resourceUsage()?.maxRSS ?? 0) / 1024 / 1024).toFixed(0)} MB`]);
}

// 4. Library figures: project memory.
const { benchMemory } = await import("./bench-memory.ts");
rows.push(...(await benchMemory()));

const width = Math.max(...rows.map(([k]) => k.length));
console.log(`shiro bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);

// 5. Benches that run as their own scripts (sessions, pruning, the prompt cache over a 300-step task).
for (const script of ["bench-sessions.ts", "bench-prune.ts", "bench-cache.ts"]) {
  const path = join(import.meta.dir, script);
  if (!(await Bun.file(path).exists())) continue;
  console.log("");
  Bun.spawnSync([process.execPath, path], { stdout: "inherit", stderr: "inherit" });
}
