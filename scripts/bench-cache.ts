/**
 * The prompt-cache figures (issue 15): a 300-step scripted task through the compiled binary against
 * the fake server, which emulates OpenAI's prompt caching (per prompt_cache_key and prefix, from
 * 1,024 tokens, in 128-token blocks). Each step's tool output is about 3 KB, a todo_write comes every
 * 10 steps, and the pruning threshold is low enough that the wire is cut well over ten times. Prints the
 * cached share of input tokens (goal: at least 0.95), the prefix breaks, and the input cost at gpt-5
 * prices with and without the cache. Nothing is asserted. `bun scripts/bench-cache.ts` (uses
 * SHIRO_BIN, else dist/shiro as built by `bun run bench`).
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRICES } from "../lib/sessions/pricing.ts";
import { startFakeServer, type Reply } from "../spec/support/fake-openai.ts";
import { estimateInputTokens } from "../spec/support/fake-openai/context-limit.ts";
import { PromptCache } from "../spec/support/fake-openai/prompt-cache.ts";

const STEPS = 300;
const THRESHOLD = Number(process.env.BENCH_CACHE_THRESHOLD ?? 45_000);
/** A request that reuses less than all but this many tokens of the previous one broke its prefix. */
const TAIL_TOKENS = 400;

const root = join(import.meta.dir, "..");
const bin = process.env.SHIRO_BIN ?? join(root, "dist", "shiro");
const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-cache-")));
const work = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-cache-work-")));

function reply(i: number): Reply {
  if (i % 10 === 0) {
    const todos = ["survey", "check each batch", "summarise"].map((t, k) => ({ content: `${t} (step ${i})`, status: k === 0 ? "completed" : k === 1 ? "in_progress" : "pending" }));
    return { toolCalls: [{ name: "todo_write", input: { todos } }] };
  }
  // 3 KB of output: 429 six-digit numbers, one a line.
  const from = 100_000 + i * 1000;
  return { toolCalls: [{ name: "bash", input: { command: `seq ${from} ${from + 428}` } }] };
}

const replies: Reply[] = [...Array.from({ length: STEPS }, (_, i) => reply(i)), { text: "done" }];
const server = await startFakeServer({ replies });
const t0 = performance.now();
const child = Bun.spawn([bin, "-p", "go through every batch", "--json", "--yolo", "-m", "gpt-5", "--max-steps", String(STEPS + 1)], {
  cwd: work,
  env: {
    PATH: process.env.PATH ?? "",
    HOME: home,
    SHIRO_HOME: join(home, ".shiro-neko"),
    SHIRO_BASE_URL: server.url,
    SHIRO_CLIENT: "openai",
    SHIRO_CONTEXT_WINDOW: "1000000",
    SHIRO_COMPACT_AT: String(THRESHOLD),
  },
  stdout: "pipe",
  stderr: "pipe",
});
const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
const wall = performance.now() - t0;
await server.close();

// The server's cache, replayed over the captured requests: the same numbers it reported, per request.
const cache = new PromptCache();
let input = 0;
let cached = 0;
let breaks = 0;
let cuts = 0;
let previous = 0;
let previousItems: string[] = [];
for (const [i, request] of server.requests.entries()) {
  const hit = cache.admit(request.body);
  const tokens = estimateInputTokens(request.body);
  input += tokens;
  cached += hit;
  if (i > 0 && hit < previous - TAIL_TOKENS) breaks++;
  // A cut: the history this request carries does not go on from the previous one's (its task list aside).
  const items: string[] = (request.body.input ?? request.body.messages).map((item: unknown) => JSON.stringify(item));
  const carried = previousItems.slice(0, -1);
  if (carried.some((item, k) => items[k] !== item)) cuts++;
  previousItems = items;
  previous = tokens;
}
const result = stdout.trim().split("\n").map((l) => JSON.parse(l)).at(-1);
const price = PRICES["gpt-5"]!;
const withCache = ((input - cached) * price.input + cached * price.cachedInput!) / 1e6;
const without = (input * price.input) / 1e6;

const rows: [string, string][] = [
  [`${STEPS}-step task, threshold ${THRESHOLD.toLocaleString("en")} (exit ${code}, ${result?.status})`, `${server.requests.length} requests in ${(wall / 1000).toFixed(1)} s, ${cuts} cuts of the wire`],
  ["  cached share of input tokens (goal ≥ 0.95)", (cached / input).toFixed(3)],
  ["  prefix breaks (a request reusing less than all but 400 tokens of the one before)", String(breaks)],
  ["  input tokens, of them cached", `${input.toLocaleString("en")}, ${cached.toLocaleString("en")}`],
  ["  input cost at gpt-5 prices, with / without the cache", `$${withCache.toFixed(3)} / $${without.toFixed(3)} (${(without / withCache).toFixed(1)}× less)`],
  ["  the session's own record (result usage)", `${result?.usage?.inputTokens?.toLocaleString("en")} in (${(result?.usage?.cachedInputTokens ?? 0).toLocaleString("en")} cached), $${result?.costUsd?.toFixed(3)}`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`shiro bench-cache — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
