import { describe, expect, test } from "bun:test";
import { formatLineChanges, unifiedDiff } from "../../lib/text/diff.ts";

const counts = (before: string, after: string) => {
  const { added, removed } = unifiedDiff(before, after);
  return { added, removed };
};

describe("unified diff", () => {
  test("one changed line with context and counts", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    const diff = unifiedDiff(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(["h@@ -2,7 +2,7 @@", "cb", "cc", "cd", "re", "aE", "cf", "cg", "ch"]);
  });

  test("a new file is all additions", () => {
    const diff = unifiedDiff("", "x\ny\n");
    expect([diff.added, diff.removed]).toEqual([2, 0]);
    expect(diff.lines[0]!.text).toBe("@@ -0,0 +1,2 @@");
  });

  test("distant changes make separate hunks", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[2] = "two";
    changed[25] = "twenty-five";
    const diff = unifiedDiff(lines.join("\n"), changed.join("\n"));
    expect(diff.lines.filter((l) => l.kind === "hunk")).toHaveLength(2);
  });

  test("no change, no hunks", () => {
    expect(unifiedDiff("same\n", "same\n").lines).toEqual([]);
  });
});

describe("counts", () => {
  test("changed lines are counted the way a diff does", () => {
    expect(counts("a\nb\nc\n", "a\nB\nc\n")).toEqual({ added: 1, removed: 1 });
    expect(counts("a\nc\n", "a\nb\nc\n")).toEqual({ added: 1, removed: 0 });
    expect(counts("a\nb\nc\nd\n", "b\nd\n")).toEqual({ added: 0, removed: 2 });
    expect(counts("x\n", "x\n")).toEqual({ added: 0, removed: 0 });
    expect(counts("", "a\nb")).toEqual({ added: 2, removed: 0 });
    expect(formatLineChanges(counts("a\nb\n", "a\nc\nd\n"))).toBe("+2 -1");
  });

  test("lines split as read_file splits them: CRLF lines compare with their \\r, so a change of line endings shows", () => {
    // The approval preview used to split on \r?\n and showed "(no change)" for a write that rewrote every line ending.
    expect(counts("a\r\nb\r\n", "a\r\nB\r\n")).toEqual({ added: 1, removed: 1 });
    expect(counts("a\nb\n", "a\r\nb\r\n")).toEqual({ added: 2, removed: 2 });
    expect(unifiedDiff("a\r\n", "b\r\n").lines.map((l) => l.text)).toEqual(["@@ -1,1 +1,1 @@", "a\r", "b\r"]);
  });

  test("a changed block too large to align is counted whole", () => {
    const before = Array.from({ length: 2001 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 2001 }, (_, i) => (i % 2 === 0 ? `old ${i}` : `new ${i}`)).join("\n");
    // 1999 × 1999 cells after the common first and last lines: within MAX_LCS_CELLS, aligned.
    expect(counts(before, after)).toEqual({ added: 1000, removed: 1000 });
    const big = Array.from({ length: 2100 }, (_, i) => `x ${i}`).join("\n");
    const other = Array.from({ length: 2100 }, (_, i) => (i % 2 === 0 ? `x ${i}` : `y ${i}`)).join("\n");
    // 2099 × 2099 (only the first line is common): past it, so removed-then-added, the common lines inside counted too.
    expect(counts(big, other)).toEqual({ added: 2099, removed: 2099 });
  });
});
