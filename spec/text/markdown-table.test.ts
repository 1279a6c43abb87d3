import { describe, expect, test } from "bun:test";
import { createMarkdownStream, renderMarkdown, type MarkdownStyle } from "../../lib/text/markdown.ts";
import { splitRow } from "../../lib/text/markdown-table.ts";

const id = (t: string) => t;
/** No styling: what NO_COLOR gets, and what lets a test read the columns' alignment. */
const plain: MarkdownStyle = {
  color: false,
  heading: id,
  bold: id,
  italic: id,
  strike: id,
  code: id,
  link: id,
  url: id,
  quote: id,
  bullet: id,
  rule: id,
  gutter: id,
  token: (_k, t) => t,
};

const TABLE = ["| file | lines | state |", "| :--- | ---: | :---: |", "| parser.ts | 412 | ok |", "| a.ts | 7 | changed |"].join("\n");

describe("Markdown tables", () => {
  test("columns are aligned as the delimiter row says, with a rule under the header", () => {
    expect(renderMarkdown(TABLE, plain, 80)).toEqual([
      "file      │ lines │  state",
      "──────────┼───────┼────────",
      "parser.ts │   412 │   ok",
      "a.ts      │     7 │ changed",
    ]);
  });

  test("the header is bold, and cells keep their inline Markdown", () => {
    const tagged: MarkdownStyle = { ...plain, color: true, bold: (t) => `\x1b[1m${t}\x1b[22m`, code: (t) => `\x1b[36m${t}\x1b[39m` };
    const rows = renderMarkdown("| name | what |\n| --- | --- |\n| `x` | **big** |", tagged, 80);
    expect(rows[0]).toContain("\x1b[1mname\x1b[22m");
    expect(rows[2]).toContain("\x1b[36mx\x1b[39m");
    expect(Bun.stripANSI(rows[2]!)).toBe("x    │ big");
  });

  test("a table wider than the screen wraps its widest column's cells inside the column", () => {
    const text = "| key | meaning |\n| --- | --- |\n| idle | the provider sent nothing for a long while, so shiro stopped waiting for it |";
    const rows = renderMarkdown(text, plain, 40);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(rows[0]).toStartWith("key  │ meaning");
    expect(rows[2]).toStartWith("idle │ the provider sent nothing for a");
    // The rest of the cell continues under its own column, not at the left edge.
    expect(rows.slice(3).every((row) => row.startsWith("     │ "))).toBe(true);
    expect(rows.slice(2).map((row) => row.slice(7).trim()).join(" ")).toBe("the provider sent nothing for a long while, so shiro stopped waiting for it");
  });

  test("a table too wide to align at all is shown as written, cut to the width", () => {
    const header = Array.from({ length: 12 }, (_, i) => `c${i}`).join(" | ");
    const rows = renderMarkdown(`| ${header} |\n|${" --- |".repeat(12)}\n| ${header} |`, plain, 30);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
    expect(rows[0]).toStartWith("c0 | c1 | c2");
  });

  test("pipes inside code spans and escaped pipes stay in their cell; short rows get empty cells", () => {
    expect(splitRow("| `a | b` | c \\| d |")).toEqual(["`a | b`", "c \\| d"]);
    expect(renderMarkdown("| cmd | note |\n| --- | --- |\n| `ls | wc` | a \\| b |\n| only |", plain, 80)).toEqual([
      "cmd       │ note",
      "──────────┼──────",
      "`ls | wc` │ a | b",
      "only      │",
    ]);
  });

  test("streamed: rows wait until the table ends, and the live view shows it drawn so far", () => {
    const stream = createMarkdownStream(plain, () => 80);
    expect(stream.push("Here:\n| a | b |\n")).toEqual(["Here:"]);
    expect(stream.pending()).toEqual(["| a | b |"]); // maybe a header: waits for the next line
    expect(stream.push("| - | - |\n| 1 | 2 |\n| 33")).toEqual([]);
    expect(stream.pending()).toEqual(["a  │ b", "───┼──", "1  │ 2", "33 │"]);
    expect(stream.push(" | 4 |\nafter\n")).toEqual(["a  │ b", "───┼──", "1  │ 2", "33 │ 4", "after"]);
  });

  test("a line with a pipe that no delimiter row follows comes through as written, one line later", () => {
    const stream = createMarkdownStream(plain, () => 80);
    expect(stream.push("run a | b to count\n")).toEqual([]);
    expect(stream.push("and then stop\n")).toEqual(["run a | b to count", "and then stop"]);
    expect(renderMarkdown("x | y", plain, 80)).toEqual(["x | y"]);
  });

  test("a list item, quote or heading right after a table starts its own block, even with a pipe in it", () => {
    const table = "| a | b |\n| - | - |\n| 1 | 2 |\n";
    expect(renderMarkdown(table + "- run x | y\n- then z", plain, 80)).toEqual(["a │ b", "──┼──", "1 │ 2", "• run x | y", "• then z"]);
    expect(renderMarkdown(table + "> a | b", plain, 80)).toEqual(["a │ b", "──┼──", "1 │ 2", "│ a | b"]);
    expect(renderMarkdown(table + "## c | d", plain, 80)).toEqual(["a │ b", "──┼──", "1 │ 2", "c | d"]);
    // The live view draws it the same way while the line is still coming.
    const stream = createMarkdownStream(plain, () => 80);
    stream.push(table + "- run x | y");
    expect(stream.pending()).toEqual(["a │ b", "──┼──", "1 │ 2", "• run x | y"]);
  });

  test("a table inside a list item stays indented under the item, as the item's other lines do, live and once drawn", () => {
    const text = "- counts:\n  | file | n |\n  | --- | ---: |\n  | a.ts | 7 |\n  more words\n1. sizes:\n   | x | y |\n   | - | - |\n   | 1 | 2 |\n";
    expect(renderMarkdown(text, plain, 80)).toEqual([
      "• counts:",
      "  file │ n",
      "  ─────┼──",
      "  a.ts │ 7",
      "  more words",
      "1. sizes:",
      "   x │ y",
      "   ──┼──",
      "   1 │ 2",
    ]);
    const stream = createMarkdownStream(plain, () => 80);
    stream.push("- counts:\n  | file | n |\n  | --- | ---: |\n  | a.ts | 7 |\n");
    expect(stream.pending()).toEqual(["  file │ n", "  ─────┼──", "  a.ts │ 7"]);
    // The indent comes out of the width: every row still fits.
    const narrow = renderMarkdown("- x\n  | " + "word ".repeat(12) + "| " + "more ".repeat(12) + "|\n  | --- | --- |\n", plain, 30);
    for (const row of narrow.slice(1)) {
      expect(row).toStartWith("  ");
      expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
    }
  });

  test("the stream says when it holds a table (or a line that may start one) that ending now would cut short", () => {
    const stream = createMarkdownStream(plain, () => 80);
    expect(stream.holding()).toBe(false);
    stream.push("Counts:\n\n");
    expect(stream.holding()).toBe(false);
    stream.push("| a | b");
    expect(stream.holding()).toBe(true); // a row still being written
    stream.push(" |\n");
    expect(stream.holding()).toBe(true); // a possible header
    stream.push("| - | - |\n| 1 | 2 |\n");
    expect(stream.holding()).toBe(true);
    expect([...stream.push("\nDone"), ...stream.push(".\n")]).toEqual(["a │ b", "──┼──", "1 │ 2", "", "Done."]);
    expect(stream.holding()).toBe(false);
    const code = createMarkdownStream(plain, () => 80);
    code.push("```\n| in code |\n");
    expect(code.holding()).toBe(false);
  });

  test("a table at the very end of an answer is drawn when the answer ends", () => {
    const stream = createMarkdownStream(plain, () => 80);
    stream.push("| a |\n| --- |\n| 1 |");
    expect(stream.end()).toEqual(["a", "─", "1"]);
  });
});

test("the live view of a long table still streaming draws its header and last rows, and the end draws it whole", () => {
  const stream = createMarkdownStream(plain, () => 80);
  stream.push("| n | square |\n| --- | --- |\n");
  for (let i = 1; i <= 200; i++) stream.push(`| ${i} | ${i * i} |\n`);
  const live = stream.pending();
  expect(live.length).toBeLessThan(50);
  expect(live[0]).toStartWith("n ");
  expect(live.at(-1)).toStartWith("200 │ 40000");
  const done = stream.end();
  expect(done).toHaveLength(202);
  expect(done[2]).toStartWith("1   │ 1");
});
