/**
 * What every reliability check shares: the figure it reports, a seeded PRNG, a way to start the
 * real CLI as a child it can kill, and the "does everything under SHIRO_HOME still parse" audit.
 * The checks run shiro exactly as a user would (a separate process, the strict fake server on
 * 127.0.0.1); nothing here reaches into a running shiro.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { ModelMessage } from "ai";
import { MemoryFile } from "../../../lib/memory/schema.ts";
import { validateHistory } from "../../../lib/prune/validate.ts";
import { idFromFileName } from "../../../lib/sessions/paths.ts";
import { loadSession } from "../../../lib/sessions/store.ts";
import { shiroCommand, tempDir } from "../cli.ts";
import { shiroEnv } from "../cli.ts";

/** One check's result, as printed by scripts/reliability.ts and recorded in docs/reliability.md. */
export type Figure = {
  check: string;
  /** Independent attempts (processes killed, files fuzzed, faults injected, …). */
  runs: number;
  failures: number;
  /** Files under SHIRO_HOME (or set aside) that were opened and validated. */
  filesChecked: number;
  /** One line per failure, enough to reproduce it (seed, run number, what was wrong). */
  problems: string[];
  /** Check-specific measurements (steps lost, prunes, margins, …). */
  notes: Record<string, number | string>;
  ms: number;
};

export function figure(check: string): Figure & { fail(problem: string): void } {
  const started = performance.now();
  const f: Figure & { fail(problem: string): void } = {
    check,
    runs: 0,
    failures: 0,
    filesChecked: 0,
    problems: [],
    notes: {},
    get ms() {
      return Math.round(performance.now() - started);
    },
    fail(problem: string) {
      f.failures++;
      if (f.problems.length < 50) f.problems.push(problem);
    },
  };
  return f;
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** The environment runShiro gives a child, for children this module spawns itself. */
export { shiroEnv };

export type Child = ReturnType<typeof spawnShiro>;

/** Starts the CLI without waiting for it, so it can be killed at a chosen moment. */
export function spawnShiro(args: string[], opts: { home: string; cwd: string; baseURL?: string; env?: Record<string, string | undefined> }) {
  const child = Bun.spawn([...shiroCommand(), ...args], {
    cwd: opts.cwd,
    env: shiroEnv(opts.home, opts.baseURL, opts.env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = new Response(child.stdout).text();
  const stderr = new Response(child.stderr).text();
  return {
    child,
    async done(): Promise<{ code: number; stdout: string; stderr: string }> {
      const [out, err, code] = await Promise.all([stdout, stderr, child.exited]);
      return { code, stdout: out, stderr: err };
    },
  };
}

/**
 * Why this run looks like a crash rather than a handled failure, or undefined. A crash is: a
 * signal exit other than SIGINT's 130 (we never kill these children), a stack trace, Bun's crash
 * banner, or shiro's own "unexpected error" catch-all (which asks the user to report a bug).
 */
export function crashSign(run: { code: number; stderr: string }): string | undefined {
  if (run.code > 128 && run.code !== 130) return `exit ${run.code} (killed by a signal)`;
  if (![0, 1, 2, 3, 4, 130].includes(run.code)) return `exit ${run.code}`;
  if (/^\s+at .+[(:]\d+/m.test(run.stderr) || /\n\s+at \S+/.test(run.stderr)) return "a stack trace on stderr";
  if (/panic|Bun v\d|segmentation fault|oh no: Bun has crashed/i.test(run.stderr)) return "a runtime crash banner on stderr";
  if (/unexpected error/i.test(run.stderr)) return `shiro's catch-all "unexpected error": ${firstLine(run.stderr)}`;
  return undefined;
}

export function firstLine(text: string): string {
  return (text.split("\n").find((l) => l.trim()) ?? "").slice(0, 300);
}

export function shiroHomeOf(home: string): string {
  return join(home, ".shiro-neko");
}

const HistoryFile = v.object({ project: v.string(), entries: v.array(v.string()) });

export type HomeAudit = {
  files: number;
  problems: string[];
  /** Session records that parsed, by id. */
  sessions: Map<string, { messages: ModelMessage[]; todos: unknown }>;
  /** Every memory note text across the project stores. */
  notes: string[];
  /** Files shiro set aside as corrupt (`*.corrupt-*`). */
  setAside: string[];
};

/**
 * Opens every session, memory and history file under `$SHIRO_HOME` the way shiro would and
 * reports each that does not parse, fails its schema, or (sessions) holds a history a strict
 * provider would refuse. Read-only: never moves or repairs anything.
 */
export function auditHome(home: string, opts: { ignore?: readonly string[] } = {}): HomeAudit {
  const root = shiroHomeOf(home);
  const audit: HomeAudit = { files: 0, problems: [], sessions: new Map(), notes: [], setAside: [] };
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

  for (const name of list(join(root, "sessions"))) {
    if (name.includes(".corrupt-")) audit.setAside.push(join(root, "sessions", name));
    const id = idFromFileName(name);
    if (!id) continue;
    audit.files++;
    const loaded = loadSession(root, id);
    if (loaded.status !== "ok") {
      audit.problems.push(`session ${name}: ${loaded.status === "corrupt" ? loaded.reason : loaded.status}`);
      continue;
    }
    // "reference-without-reasoning" is the validator being strict on purpose (a non-reasoning model's
    // item references are fine); the strict server, which every check also uses, is the judge there.
    const violations = validateHistory(loaded.record.messages as ModelMessage[], { allowPendingCalls: true }).filter((x) => x.code !== "reference-without-reasoning" && !opts.ignore?.includes(x.code));
    if (violations.length > 0) audit.problems.push(`session ${name}: history a provider would refuse: ${violations[0]!.message}`);
    audit.sessions.set(id, { messages: loaded.record.messages as ModelMessage[], todos: loaded.record.notebook.todos });
  }

  for (const name of list(join(root, "memory"))) {
    const path = join(root, "memory", name);
    if (name.includes(".corrupt-")) audit.setAside.push(path);
    if (!/^[0-9a-f]{16}\.json$/.test(name)) continue;
    audit.files++;
    const problem = parseJsonFile(path, MemoryFile);
    if (typeof problem === "string") audit.problems.push(`memory ${name}: ${problem}`);
    else audit.notes.push(...problem.entries.map((e) => e.text));
  }

  for (const name of list(join(root, "history"))) {
    const path = join(root, "history", name);
    if (name.includes(".corrupt-")) audit.setAside.push(path);
    if (!/^[0-9a-f]{16}\.json$/.test(name)) continue;
    audit.files++;
    const problem = parseJsonFile(path, HistoryFile);
    if (typeof problem === "string") audit.problems.push(`history ${name}: ${problem}`);
  }
  return audit;
}

function parseJsonFile<S extends v.GenericSchema>(path: string, schema: S): v.InferOutput<S> | string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(path));
    const parsed = v.safeParse(schema, JSON.parse(text));
    return parsed.success ? parsed.output : `fails its schema (${parsed.issues[0]?.message})`;
  } catch (error) {
    return `does not parse (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** How many processes to run side by side: the cores, at least two. */
export function parallelism(): number {
  return Math.max(2, navigator.hardwareConcurrency || 2);
}

/** Tool-call ids of a history in order (assistant tool-call parts). */
export function callIdsOf(messages: readonly ModelMessage[]): string[] {
  const ids: string[] = [];
  for (const m of messages) {
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const p of m.content) if (p.type === "tool-call") ids.push(p.toolCallId);
  }
  return ids;
}

/** Tool-call ids in a captured request body, in order, whichever wire. */
export function callIdsInRequest(body: any): string[] {
  if (Array.isArray(body?.input)) return body.input.filter((i: any) => i.type === "function_call").map((i: any) => String(i.call_id));
  const ids: string[] = [];
  for (const m of body?.messages ?? []) for (const c of m.tool_calls ?? []) ids.push(String(c.id));
  return ids;
}

export { tempDir };

/** Every file below `dir` (not following links), for the secrets scan. */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of existsSync(d) ? readdirSync(d) : []) {
      const path = join(d, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) visit(path);
      else if (st.isFile()) out.push(path);
    }
  };
  visit(dir);
  return out;
}

/** At most `n` of the functions passed run at once (for concurrent tests that each start processes). */
export function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
