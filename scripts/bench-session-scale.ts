/**
 * Large sessions, for `bun run bench`: the main-thread time of an autosave of a 1 MB and a 50 MB
 * session (one step's messages appended, then the timed save, to the file on disk), and the time
 * to resume the 50 MB session through the binary (`shiro -c -p` to its first request reaching the
 * fake server). `bun scripts/bench-session-scale.ts` (SHIRO_BIN as in bench.ts). Nothing is asserted.
 */
import type { ModelMessage } from "ai";
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLiveSession } from "../lib/sessions/live-session.ts";
import { sessionPath } from "../lib/sessions/paths.ts";
import { saveSession } from "../lib/sessions/store.ts";
import type { SessionRecord } from "../lib/sessions/schema.ts";
import { makeRecord } from "../spec/sessions/support/fixtures.ts";
import { startFakeServer } from "../spec/support/fake-openai.ts";

/** How long the resume is waited for. */
const RESUME_LIMIT_MS = 180_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU time of this process's main thread so far, in ms. */
function mainThreadMs(): number {
  return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

/** A record of about `megabytes` MB: 2,000-message rounds whose tool results carry `resultBytes` each. */
export function sessionOf(megabytes: number, cwd: string): SessionRecord {
  const resultBytes = 2_000;
  const count = Math.max(4, Math.round((megabytes * 1024 * 1024) / (resultBytes / 2 + 250)));
  const base = makeRecord({ messageCount: count, cwd });
  let n = 0;
  const messages = base.messages.map((m): ModelMessage => {
    if (m.role !== "tool") return m;
    const text = `line ${n++} of a command's output, long enough to be like one\n`.repeat(Math.ceil(resultBytes / 60)).slice(0, resultBytes);
    return { ...m, content: m.content.map((p) => (p.type === "tool-result" ? { ...p, output: { type: "text" as const, value: text } } : p)) };
  });
  return { ...base, messages };
}

/** One step's messages: a call and its result. */
function stepMessages(i: number): ModelMessage[] {
  const id = `call_bench_${i}`;
  return [
    { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "bash", input: { command: `echo ${i}` } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "bash", output: { type: "text", value: `${i}\n` } }] },
  ];
}

/**
 * The main-thread CPU of one timed autosave after a step, median of `runs`: the session is opened
 * (resumed) once, then each run appends a step and waits for its save to be on disk.
 */
async function autosaveMs(record: SessionRecord, home: string, runs: number): Promise<{ ms: number; first: number; mb: number }> {
  saveSession(home, record);
  const live = openLiveSession({ home, cwd: record.cwd, provider: "openai", model: "gpt-5", resume: record, debounceMs: 1 });
  const path = sessionPath(home, record.id);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = statSync(path).mtimeMs;
    const cpu = mainThreadMs();
    live.append(stepMessages(i));
    // The timed save (its timer set to 1 ms here), and whatever the writer does until the file is replaced.
    await Bun.sleep(5);
    await live.settled();
    times.push(mainThreadMs() - cpu);
    if (statSync(path).mtimeMs === before) throw new Error("the timed save did not replace the file");
  }
  live.close();
  // The first save of a process writes the whole file; the later ones start from it.
  return { ms: median(times.slice(1)), first: times[0]!, mb: statSync(path).size / 1024 / 1024 };
}

export async function benchSessionScale(bin: string | undefined): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-large-")));
  try {
    for (const mb of [1, 50]) {
      const { ms, first, mb: size } = await autosaveMs(sessionOf(mb, home), join(home, `autosave-${mb}`), mb > 10 ? 6 : 16);
      rows.push([`autosave after a step, ${size.toFixed(0)} MB session: main-thread CPU`, `${ms.toFixed(1)} ms (goal ≤ 20 ms); the process's first save, in full: ${first.toFixed(1)} ms`]);
    }
    if (bin) {
      const shiroHome = join(home, ".shiro-neko");
      const record = sessionOf(50, home);
      saveSession(shiroHome, record);
      const size = statSync(sessionPath(shiroHome, record.id)).size / 1024 / 1024;
      // One run: at this size it takes long (docs/performance.md says where the time goes).
      const server = await startFakeServer({ replies: [{ text: "ok" }] });
      const t0 = performance.now();
      const child = Bun.spawn([bin, "-c", "-p", "go on", "--api", "chat"], {
        cwd: home,
        env: { PATH: process.env.PATH ?? "", HOME: home, SHIRO_HOME: shiroHome, SHIRO_BASE_URL: server.url, SHIRO_CONTEXT_WINDOW: "1000000" },
        stdout: "ignore",
        stderr: "ignore",
      });
      while (server.requests.length === 0 && performance.now() - t0 < RESUME_LIMIT_MS && child.exitCode === null) await Bun.sleep(2);
      const took = performance.now() - t0;
      const reached = server.requests.length > 0;
      child.kill();
      await child.exited;
      await server.close();
      const figure = reached ? `${took.toFixed(0)} ms` : `no request within ${RESUME_LIMIT_MS / 1000} s`;
      rows.push([`resume a ${size.toFixed(0)} MB session: -c -p to its first request`, `${figure} (goal ≤ 1 s)`]);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  const rows = await benchSessionScale(process.argv.includes("--no-bin") ? undefined : (process.env.SHIRO_BIN ?? join(import.meta.dir, "..", "dist", "shiro")));
  for (const [k, v] of rows) console.log(`${k.padEnd(64)}  ${v}`);
}
