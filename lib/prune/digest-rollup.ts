import type { ToolDigest } from "./digest.ts";

/** Most tools named in a roll-up line; the rest are counted together. */
const MAX_TOOLS = 10;
/** Paths named per file-changing tool. */
const MAX_PATHS = 5;

/**
 * One line standing for many digest lines, once the digest itself would crowd the request: how
 * many calls, per tool how many and how many failed, and for file-changing tools (a mutating tool
 * with a path subject, see digest.ts) the paths they touched (most touched first). E.g. `2,900 earlier calls, condensed: read_file ×1,200,
 * bash ×900 (120 failed), edit_file ×300 on 14 paths (src/a.ts, lib/db.ts, …)`. Deterministic
 * and bounded whatever the number of calls.
 */
export function rollUpDigests(digests: readonly ToolDigest[]): string {
  const tally = new RollUpTally();
  for (const d of digests) tally.add(d);
  return tally.line();
}

/** rollUpDigests built one digest at a time (the same line for the same digests), for a digest that only grows. */
export class RollUpTally {
  private readonly byTool = new Map<string, { count: number; failed: number; paths: Map<string, number> }>();
  private n = 0;

  add(d: ToolDigest): void {
    let entry = this.byTool.get(d.tool);
    if (!entry) this.byTool.set(d.tool, (entry = { count: 0, failed: 0, paths: new Map() }));
    entry.count++;
    if (d.failed) entry.failed++;
    if (d.changed) entry.paths.set(d.changed, (entry.paths.get(d.changed) ?? 0) + 1);
    this.n++;
  }

  line(): string {
    const tools = [...this.byTool.entries()].sort((a, b) => b[1].count - a[1].count); // stable: ties keep first appearance
    const parts = tools.slice(0, MAX_TOOLS).map(([tool, e]) => {
      let text = `${tool} ×${e.count.toLocaleString("en")}`;
      if (e.paths.size > 0) {
        const top = [...e.paths.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_PATHS).map(([p]) => p);
        text += ` on ${e.paths.size} ${e.paths.size === 1 ? "path" : "paths"} (${top.join(", ")}${e.paths.size > top.length ? ", …" : ""})`;
      }
      if (e.failed > 0) text += ` (${e.failed.toLocaleString("en")} failed)`;
      return text;
    });
    const others = tools.slice(MAX_TOOLS).reduce((n, [, e]) => n + e.count, 0);
    if (others > 0) parts.push(`${others.toLocaleString("en")} calls to ${tools.length - MAX_TOOLS} other tools`);
    const n = this.n;
    return `${n.toLocaleString("en")} earlier ${n === 1 ? "call" : "calls"}, condensed: ${parts.join(", ")}`;
  }
}
