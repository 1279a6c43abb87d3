/** Lines of context around each change, as `diff -u` shows. */
const CONTEXT_LINES = 3;
/** Above this many cells the changed block is shown as removed-then-added instead of aligned. */
const MAX_LCS_CELLS = 4_000_000;

/** `no`: the line's number in the file, the old file's for a removed line and the new one's otherwise (none for a hunk header). */
export type DiffLine = { kind: "hunk" | "context" | "added" | "removed"; text: string; no?: number };
export type UnifiedDiff = { lines: DiffLine[]; added: number; removed: number };

type Op = { kind: "context" | "added" | "removed"; text: string; oldNo: number; newNo: number };

/**
 * A unified diff of two texts, line by line: `@@ -a,b +c,d @@` hunks with three lines of context.
 * Lines are split as read_file splits them (on "\n", a trailing "\r" kept, so a change of line
 * endings is a change). Common leading and trailing lines are matched first, the rest by longest
 * common subsequence; a changed block too large for that counts whole. Pure. The approval prompt
 * shows the lines; `added` and `removed` are the edit tools' `+A -D` summary.
 */
export function unifiedDiff(before: string, after: string): UnifiedDiff {
  const ops = diffOps(splitLines(before), splitLines(after));
  const added = ops.filter((op) => op.kind === "added").length;
  const removed = ops.filter((op) => op.kind === "removed").length;
  const lines: DiffLine[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === "context") {
      i++;
      continue;
    }
    // A hunk: from CONTEXT_LINES before this change to CONTEXT_LINES after the last change that is
    // no more than 2 × CONTEXT_LINES unchanged lines away from the previous one.
    const start = Math.max(0, i - CONTEXT_LINES);
    let end = i;
    let j = i;
    while (j < ops.length) {
      if (ops[j]!.kind !== "context") {
        end = j;
        j++;
        continue;
      }
      let run = 0;
      while (j + run < ops.length && ops[j + run]!.kind === "context") run++;
      if (j + run >= ops.length || run > 2 * CONTEXT_LINES) break;
      j += run;
    }
    const stop = Math.min(ops.length, end + 1 + CONTEXT_LINES);
    const hunk = ops.slice(start, stop);
    const oldCount = hunk.filter((op) => op.kind !== "added").length;
    const newCount = hunk.filter((op) => op.kind !== "removed").length;
    const oldStart = oldCount === 0 ? hunk[0]!.oldNo - 1 : hunk.find((op) => op.kind !== "added")!.oldNo;
    const newStart = newCount === 0 ? hunk[0]!.newNo - 1 : hunk.find((op) => op.kind !== "removed")!.newNo;
    lines.push({ kind: "hunk", text: `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@` });
    for (const op of hunk) lines.push({ kind: op.kind, text: op.text, no: op.kind === "removed" ? op.oldNo : op.newNo });
    i = stop;
  }
  return { lines, added, removed };
}

/** `+3 -1`, the summary form of a diff's counts. */
export function formatLineChanges(changes: { added: number; removed: number }): string {
  return `+${changes.added} -${changes.removed}`;
}

/** As lib/text/lines.ts splitLines: no phantom empty line after a final newline. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function diffOps(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: Op[] = [];
  let oldNo = 1;
  let newNo = 1;
  const push = (kind: Op["kind"], text: string) => {
    ops.push({ kind, text, oldNo, newNo });
    if (kind !== "added") oldNo++;
    if (kind !== "removed") newNo++;
  };
  for (const text of a.slice(0, head)) push("context", text);
  if (midA.length * midB.length > MAX_LCS_CELLS) {
    for (const text of midA) push("removed", text);
    for (const text of midB) push("added", text);
  } else {
    // LCS lengths of every pair of suffixes, in one flat table (row x, column y), then walk forward.
    const n = midA.length;
    const m = midB.length;
    const width = m + 1;
    const table = new Uint32Array((n + 1) * width);
    const at = (x: number, y: number) => table[x * width + y]!;
    for (let x = n - 1; x >= 0; x--) {
      for (let y = m - 1; y >= 0; y--) {
        table[x * width + y] = midA[x] === midB[y] ? at(x + 1, y + 1) + 1 : Math.max(at(x + 1, y), at(x, y + 1));
      }
    }
    let x = 0;
    let y = 0;
    while (x < n || y < m) {
      if (x < n && y < m && midA[x] === midB[y]) {
        push("context", midA[x++]!);
        y++;
      } else if (x < n && (y >= m || at(x + 1, y) >= at(x, y + 1))) push("removed", midA[x++]!);
      else push("added", midB[y++]!);
    }
  }
  for (const text of a.slice(a.length - tail)) push("context", text);
  return ops;
}
