/**
 * Scale figures for `bun run bench`: a long scripted task through the binary against the fake
 * server, one `echo` per step, no pruning reached. Peak RSS after 20 and 1,000 steps, and shiro's
 * own time per step (main-thread CPU between two requests reaching the server) early and late.
 * `bun scripts/bench-scale.ts [steps...]` (SHIRO_BIN as in bench.ts). Prints a table; nothing is asserted.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../spec/support/fake-openai.ts";

const median = (xs: number[]) => (xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Peak RSS so far (VmHWM) of a process, in bytes; 0 once it is gone. */
export function peakRss(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time of a process's main thread so far, in ms (schedstat's first field). */
function mainThreadMs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

export type ScaleRun = { steps: number; rss: number; code: number; early: number; late: number };

/** One `steps`-step run: its peak RSS and the median main-thread CPU of a step, early (steps 2–101) and over the last 100. */
export async function scaleRun(bin: string, steps: number, env: Record<string, string>): Promise<ScaleRun> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-scale-")));
  const replies: Reply[] = [...Array.from({ length: steps - 1 }, (_, i): Reply => ({ toolCalls: [{ name: "bash", input: { command: `echo step-${i}` } }] })), { text: "done" }];
  const server = await startFakeServer({ replies });
  const cpu: number[] = [];
  let pid = 0;
  let rss = 0;
  const push = server.requests.push.bind(server.requests);
  server.requests.push = (...items) => {
    const at = pid ? mainThreadMs(pid) : undefined;
    if (at !== undefined) cpu.push(at);
    rss = Math.max(rss, pid ? peakRss(pid) : 0);
    return push(...items);
  };
  try {
    const child = Bun.spawn([bin, "-p", "loop", "--max-steps", String(steps), "--yolo", "--api", "chat", "--no-sandbox"], {
      cwd: home,
      env: { ...env, HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: server.url },
      stdout: "ignore",
      stderr: "ignore",
    });
    pid = child.pid;
    let done = false;
    const exited = child.exited.then((code) => ((done = true), code));
    while (!done) {
      rss = Math.max(rss, peakRss(child.pid));
      await Promise.race([exited, Bun.sleep(5)]);
    }
    const gaps = cpu.slice(1).map((at, i) => at - cpu[i]!);
    return { steps, rss, code: await exited, early: median(gaps.slice(1, 101)), late: median(gaps.slice(-100)) };
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchScale(bin: string, env: Record<string, string>, counts = [20, 1_000]): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  for (const steps of counts) {
    const run = await scaleRun(bin, steps, env);
    const exit = run.code === 0 ? "" : ` (exit ${run.code})`;
    const perStep = steps > 200 ? `; main-thread CPU a step ${run.early.toFixed(2)} ms early, ${run.late.toFixed(2)} ms over the last 100 (${(run.late / run.early).toFixed(2)}×, goal ≤ 1.2×)` : "";
    rows.push([`${steps.toLocaleString("en-US")}-step echo loop, peak RSS${exit}`, `${mb(run.rss)}${steps > 200 ? " (goal ≤ 100 MB)" : ""}${perStep}`]);
  }
  return rows;
}

if (import.meta.main) {
  const bin = process.env.SHIRO_BIN ?? join(import.meta.dir, "..", "dist", "shiro");
  const counts = process.argv.slice(2).map(Number);
  const rows = await benchScale(bin, { PATH: process.env.PATH ?? "", SHIRO_CONTEXT_WINDOW: "1000000" }, counts.length ? counts : undefined);
  for (const [k, v] of rows) console.log(`${k.padEnd(40)}  ${v}`);
}
