import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryStore, type MemoryStoreOptions } from "../../../lib/memory/store.ts";
import type { MemoryEntry, MemoryKind } from "../../../lib/memory/schema.ts";
import { runTool, type AnyTool, type ToolContext } from "../../../lib/tools/define.ts";
import { tempDir } from "../../support/cli.ts";

/** A clock that starts at a fixed instant and moves one second per call, so recency is deterministic. */
export function steppingClock(start = Date.parse("2025-01-01T00:00:00.000Z")): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

/** A store in a fresh home for a fresh project directory. */
export function freshStore(opts: Partial<MemoryStoreOptions> = {}) {
  const home = opts.home ?? join(tempDir("shiro-mem-home-"), ".shiro-neko");
  const projectRoot = opts.projectRoot ?? tempDir("shiro-mem-project-");
  const store = createMemoryStore({ now: steppingClock(), ...opts, home, projectRoot });
  return { home, projectRoot, store };
}

export function readStoreFile(path: string): { version: number; entries: MemoryEntry[] } {
  return JSON.parse(readFileSync(path, "utf8"));
}

let n = 0;
/** An entry as it would be on disk, with defaults. */
export function entry(text: string, fields: Partial<MemoryEntry> & { kind?: MemoryKind } = {}): MemoryEntry {
  n++;
  return { id: `id-${n}`, kind: "fact", text, createdAt: new Date(Date.parse("2025-01-01T00:00:00.000Z") + n * 1000).toISOString(), hits: 0, ...fields };
}

export const ctx: ToolContext = { root: "/", cwd: "/", signal: new AbortController().signal };

export function call(tools: AnyTool[], name: string, input: unknown) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return runTool(tool, input, ctx);
}
