/**
 * Project-memory figures: the cost of loading a full store at start-up and of recall over it.
 * `bun scripts/bench-memory.ts` prints a table; `bun run bench` can fold the rows in with
 * `rows.push(...(await benchMemory()))`. Nothing is asserted (figures vary by machine).
 */
import { mkdtempSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeStateFileSync } from "../lib/fs/atomic-write.ts";
import { MEMORY_KINDS, MEMORY_MAX_ENTRIES, MEMORY_TEXT_MAX_CHARS, type MemoryEntry } from "../lib/memory/index.ts";
import { createMemoryStore, openMemoryStore, serializeMemory } from "../lib/memory/store.ts";
import { recallEntries, recallNotes } from "../lib/memory/recall.ts";
import { renderMemoryBlock } from "../lib/memory/boot-block.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeIt(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** A full store of realistic, long notes: 300 entries, texts near the 400-character cap. */
function fullStore(): MemoryEntry[] {
  const words = ["migration", "seed", "pagination", "cursor", "bun", "test", "api", "v2", "orm", "snake_case", "cache", "deploy", "lint", "worker", "queue", "auth"];
  return Array.from({ length: MEMORY_MAX_ENTRIES }, (_, i) => {
    let text = `note ${i}:`;
    for (let w = i; text.length < MEMORY_TEXT_MAX_CHARS - 20; w += 7) text += ` ${words[w % words.length]}`;
    return {
      id: Bun.randomUUIDv7(),
      kind: MEMORY_KINDS[i % MEMORY_KINDS.length]!,
      text,
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      hits: i % 5,
      ...(i % 5 ? { lastHitAt: new Date(Date.UTC(2025, 5, 1) + i * 60_000).toISOString() } : {}),
    };
  });
}

export async function benchMemory(): Promise<[string, string][]> {
  const home = join(realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-memory-"))), ".shiro-neko");
  const projectRoot = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-project-")));
  const entries = fullStore();
  const store = createMemoryStore({ home, projectRoot });
  writeStateFileSync(store.path, serializeMemory(entries));
  const kb = (statSync(store.path).size / 1024).toFixed(0);
  const rows: [string, string][] = [];

  const load = await timeIt(50, async () => {
    const opened = await openMemoryStore({ home, projectRoot });
    renderMemoryBlock(opened.entries);
  });
  rows.push([`memory: load + boot block, full store (${MEMORY_MAX_ENTRIES} notes, ${kb} KB; median of 50)`, `${load.toFixed(2)} ms`]);

  for (const query of ["note 29", "migration seed"]) {
    const result = recallEntries(entries, query, new Date());
    const matched = result.ok ? result.matched : 0;
    const pure = await timeIt(200, () => recallEntries(entries, query, new Date()));
    rows.push([`memory: recall "${query}" over ${MEMORY_MAX_ENTRIES} notes (${matched} match), in memory (median of 200)`, `${(pure * 1000).toFixed(0)} µs`]);
  }

  const persisted = await timeIt(30, () => recallNotes(store, "note 29"));
  rows.push([`memory: recall tool, same query, lock + read + atomic write (median of 30)`, `${persisted.toFixed(2)} ms`]);

  const miss = await timeIt(50, () => recallNotes(store, "no-such-word"));
  rows.push([`memory: recall with no match over ${MEMORY_MAX_ENTRIES} notes, read only (median of 50)`, `${miss.toFixed(2)} ms`]);
  return rows;
}

if (import.meta.main) {
  const rows = await benchMemory();
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`shiro memory bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}
