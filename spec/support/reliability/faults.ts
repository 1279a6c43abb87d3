/**
 * Provider faults from the strict fake server, over both wires. Each case runs one `shiro -p
 * --json` whose first request meets the fault, then a `shiro -c -p` on the same session:
 *
 * - a fault before anything was shown is retried (a notice says so) and the turn succeeds;
 * - a fault after text was shown is not retried (it would be said twice): the turn ends with
 *   exit 1 and a one-line error in the result record;
 * - either way the session is saved and valid, and the `-c` that follows succeeds, with the
 *   first prompt in its history and zero requests refused by the strict server.
 *
 * The hang case needs an idle timeout shorter than a test: SHIRO_IDLE_TIMEOUT_MS.
 */
import { rmSync } from "node:fs";
import { startFakeServer, type Reply } from "../fake-openai.ts";
import { jsonLines, runShiro } from "../cli.ts";
import { WIRES } from "../requests.ts";
import { auditHome, crashSign, figure, pool, tempDir, type Figure } from "./support.ts";

export type FaultCase = {
  name: string;
  replies: Reply[];
  /** "retried": succeeds after a retry notice; "error": ends with exit 1 and a one-line error. */
  expect: "retried" | "error";
  /** The error line must match (error cases). */
  error?: RegExp;
  /** The run must take at least this long (a retry-after honoured). */
  minMs?: number;
};

/** For the hang cases only: short enough for a test, long enough that a loaded machine never trips it on a healthy stream. */
export const TEST_IDLE_TIMEOUT_MS = 3_000;

export const FAULT_CASES: FaultCase[] = [
  { name: "429 with retry-after: 1", replies: [{ status: 429, headers: { "retry-after": "1" } }, { text: "after the rate limit" }], expect: "retried", minMs: 1_000 },
  { name: "500", replies: [{ status: 500 }, { text: "after the 500" }], expect: "retried" },
  { name: "503", replies: [{ status: 503 }, { text: "after the 503" }], expect: "retried" },
  { name: "500 four times (retries exhausted)", replies: [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }], expect: "error", error: /^provider returned 500: / },
  { name: "connection reset before any output", replies: [{ fault: "reset" }, { text: "after the reset" }], expect: "retried" },
  { name: "connection reset mid-stream", replies: [{ fault: "reset", text: "The answer begins" }], expect: "error", error: /connection/i },
  { name: "malformed SSE before any output", replies: [{ fault: "malformed" }, { text: "after the garbage" }], expect: "retried" },
  { name: "malformed SSE mid-stream", replies: [{ fault: "malformed", text: "The answer begins" }], expect: "error", error: /not valid JSON|could not read/ },
  { name: "stream ends without response.completed, before output", replies: [{ fault: "truncate" }, { text: "after the cut" }], expect: "retried" },
  { name: "stream ends without response.completed, mid-answer", replies: [{ fault: "truncate", text: "The answer begins" }], expect: "error", error: /ended before the response was complete/ },
  { name: "hang before any output (idle timeout)", replies: [{ fault: "hang" }, { text: "after the hang" }], expect: "retried" },
  { name: "hang mid-stream (idle timeout)", replies: [{ fault: "hang", text: "The answer begins" }], expect: "error", error: /sent nothing for|timed out/i },
];

export async function runFaultCase(c: FaultCase, wire: (typeof WIRES)[number]): Promise<string[]> {
  const problems: string[] = [];
  const where = `${c.name} over ${wire.wire}`;
  const home = tempDir("shiro-fault-home-");
  const work = tempDir("shiro-fault-work-");
  const server = await startFakeServer({ replies: c.replies });
  const hangs = c.replies.some((r) => "fault" in r && r.fault === "hang");
  const env: Record<string, string> = hangs ? { SHIRO_IDLE_TIMEOUT_MS: String(TEST_IDLE_TIMEOUT_MS) } : {};
  const started = performance.now();
  // Bounded whatever shiro does: a hang that is never given up on shows as a kill here.
  const first = await runShiro(["-p", "first prompt", "--json", ...wire.flags], { baseURL: server.url, home, cwd: work, env, timeoutMs: 25_000 });
  const elapsed = performance.now() - started;
  const crash = crashSign(first);
  if (first.code === 137) problems.push(`${where}: shiro was still waiting after 25 s and had to be killed`);
  else if (crash) problems.push(`${where}: ${crash}`);
  let lines: Array<Record<string, any>> = [];
  try {
    lines = jsonLines(first.stdout);
  } catch {
    problems.push(`${where}: --json stdout has a line that is not JSON`);
  }
  const result = lines.at(-1);
  const notices = lines.filter((l) => l.type === "notice").map((l) => String(l.message));
  if (result?.type !== "result") problems.push(`${where}: no result record (exit ${first.code}, stderr ${JSON.stringify(first.stderr.slice(0, 200))})`);
  else if (c.expect === "retried") {
    if (result.status !== "success" || first.code !== 0) problems.push(`${where}: expected a retry and success, got ${result.status} (${result.error})`);
    if (!notices.some((n) => /retrying/.test(n))) problems.push(`${where}: no retry notice`);
    if (c.minMs && elapsed < c.minMs) problems.push(`${where}: finished in ${Math.round(elapsed)} ms, sooner than retry-after allowed`);
    if (c.minMs && !notices.some((n) => n.includes(`retrying in ${(c.minMs! / 1000).toFixed(1)}s`))) problems.push(`${where}: the retry did not wait what retry-after asked: ${JSON.stringify(notices)}`);
  } else {
    if (result.status !== "error" || first.code !== 1) problems.push(`${where}: expected exit 1 with status error, got exit ${first.code} ${result.status}`);
    const error = String(result.error ?? "");
    if (!error || /\n/.test(error)) problems.push(`${where}: the error is not one line: ${JSON.stringify(error.slice(0, 200))}`);
    if (c.error && !c.error.test(error)) problems.push(`${where}: unclear error ${JSON.stringify(error.slice(0, 200))}`);
  }
  for (const n of notices) if (/\n/.test(n)) problems.push(`${where}: a notice runs over several lines: ${JSON.stringify(n.slice(0, 120))}`);
  const errorsAfterFirst = server.errors.length;

  const audit = auditHome(home);
  for (const p of audit.problems) problems.push(`${where}: ${p}`);
  if (audit.sessions.size !== 1) problems.push(`${where}: ${audit.sessions.size} sessions saved, expected 1`);

  server.push({ text: "the next prompt works" });
  const requestsBefore = server.requests.length;
  const next = await runShiro(["-c", "-p", "next prompt", ...wire.flags], { baseURL: server.url, home, cwd: work, env, timeoutMs: 25_000 });
  if (next.code !== 0) problems.push(`${where}: the next -c prompt failed: exit ${next.code}: ${next.stderr.trim().split("\n")[0]}`);
  if (server.errors.length !== errorsAfterFirst) problems.push(`${where}: the strict server refused the next prompt: ${server.errors.at(-1)}`);
  if (errorsAfterFirst !== 0) problems.push(`${where}: the strict server refused a request: ${server.errors[0]}`);
  const sent = JSON.stringify(server.requests.slice(requestsBefore).at(-1)?.body ?? {});
  if (!sent.includes("first prompt")) problems.push(`${where}: the -c request does not carry the first prompt: the conversation was lost`);
  if (server.pending() !== 0) problems.push(`${where}: ${server.pending()} scripted replies were never requested`);
  await server.close();
  for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
  return problems;
}

/** `wires: "alternate"` (the reduced run) takes each case over one wire, alternating; "both" over each. */
export async function runFaultCheck(opts: { rounds?: number; concurrency?: number; wires?: "both" | "alternate" } = {}): Promise<Figure> {
  const f = figure("provider faults");
  const both = (opts.wires ?? "both") === "both";
  const jobs = Array.from({ length: opts.rounds ?? 1 }, () => FAULT_CASES.flatMap((c, i) => (both ? WIRES : [WIRES[i % 2]!]).map((w) => ({ c, w })))).flat();
  await pool(jobs, opts.concurrency ?? 3, async ({ c, w }) => {
    const problems = await runFaultCase(c, w);
    f.runs++;
    f.filesChecked++;
    for (const p of problems) f.fail(p);
  });
  f.notes.cases = `${FAULT_CASES.length} faults, ${both ? "over both wires" : "each over one wire, alternating"}`;
  return f;
}
