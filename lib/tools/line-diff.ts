import { splitLines } from "./lines.ts";

/** Above this many cells the exact count is skipped and the changed block is counted whole. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Lines added and removed between two versions of a file, as a diff would count them: common
 * leading and trailing lines are dropped and the rest compared by longest common subsequence.
 * Pure. Very large changed blocks are counted whole (removed = old block, added = new block).
 */
export function countLineChanges(before: string, after: string): { added: number; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const oldBlock = a.slice(start, endA);
  const newBlock = b.slice(start, endB);
  const common = oldBlock.length * newBlock.length <= MAX_LCS_CELLS ? lcsLength(oldBlock, newBlock) : 0;
  return { added: newBlock.length - common, removed: oldBlock.length - common };
}

/** `+3 -1`, the summary form. */
export function formatLineChanges(changes: { added: number; removed: number }): string {
  return `+${changes.added} -${changes.removed}`;
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}
