import { describe, expect, test } from "bun:test";
import { highlightCode } from "../../lib/text/highlight.ts";
import { createMarkdownStream, inline, renderMarkdown, type MarkdownStyle } from "../../lib/text/markdown.ts";
import { fitRow, wrapLine } from "../../lib/text/wrap.ts";

const id = (t: string) => t;
/** Every element tagged, so a test reads which style was applied where (tags are zero width for wrapping purposes only in real ANSI). */
const tagged: MarkdownStyle = {
  color: true,
  heading: (t, level) => `<h${level}>${t}</h${level}>`,
  bold: (t) => `<b>${t}</b>`,
  italic: (t) => `<i>${t}</i>`,
  strike: (t) => `<s>${t}</s>`,
  code: (t) => `<c>${t}</c>`,
  link: (t) => `<u>${t}</u>`,
  url: id,
  quote: id,
  bullet: id,
  rule: id,
  gutter: id,
  token: (kind, t) => `<${kind}>${t}</${kind}>`,
};
/** What NO_COLOR gets: no styling at all. */
const plain: MarkdownStyle = { ...tagged, color: false, heading: id, bold: id, italic: id, strike: id, code: id, link: id, token: (_k, t) => t };

describe("inline Markdown", () => {
  test("bold, italic, code, strike-through, links", () => {
    expect(inline("the loop stops **one page early** in `i < pages - 1`", tagged)).toBe("the loop stops <b>one page early</b> in <c>i < pages - 1</c>");
    expect(inline("*really* and _quite_ and ~~gone~~", tagged)).toBe("<i>really</i> and <i>quite</i> and <s>gone</s>");
    expect(inline("see [the docs](https://x.dev/a) or <https://y.dev>", tagged)).toBe("see <u>the docs</u> (https://x.dev/a) or <u>https://y.dev</u>");
    expect(inline("**bold with `code` inside**", tagged)).toBe("<b>bold with <c>code</c> inside</b>");
  });

  test("marks that do not close, arithmetic and snake_case stay as written", () => {
    expect(inline("2 * 3 * 4 and snake_case_name and **open", tagged)).toBe("2 * 3 * 4 and snake_case_name and **open");
    expect(inline("\\*not italic\\* and `unclosed", tagged)).toBe("*not italic* and `unclosed");
  });

  test("without colour, inline code keeps its backticks and emphasis marks go", () => {
    expect(inline("**bold** and `code`", plain)).toBe("bold and `code`");
  });
});

describe("blocks", () => {
  test("headings, lists, quotes, rules and paragraphs", () => {
    const rows = renderMarkdown("## What I found\n\n- one\n  - nested\n3. third\n> quoted **text**\n---\nplain", tagged, 80);
    expect(rows).toEqual(["<h2>What I found</h2>", "", "• one", "  ◦ nested", "3. third", "│ quoted <b>text</b>", "─".repeat(40), "plain"]);
  });

  test("list items and paragraphs wrap at word boundaries, continuation rows under the text", () => {
    const rows = renderMarkdown("- a list item whose words go on well past the width of this narrow terminal", plain, 30);
    expect(rows).toEqual(["• a list item whose words go", "  on well past the width of", "  this narrow terminal"]);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
  });

  test("a fenced block is highlighted by language, behind a bar, its fences not shown", () => {
    const rows = renderMarkdown("```ts\nconst x = 1; // one\n```\nafter", tagged, 80);
    expect(rows).toEqual(["  │ <keyword>const</keyword> x = <number>1</number>; <comment>// one</comment>", "after"]);
  });

  test("an unknown language or no language is code all the same, plain", () => {
    expect(renderMarkdown("```\n**not bold**\n```", tagged, 80)).toEqual(["  │ **not bold**"]);
    expect(renderMarkdown("```klingon\nqapla'\n```", tagged, 80)).toEqual(["  │ qapla'"]);
  });

  test("inline code moves whole to the next row rather than split, unless it is longer than a row", () => {
    const rows = renderMarkdown("Run it with `npm run build -- --watch` and check the output.", plain, 30);
    expect(rows).toEqual(["Run it with", "`npm run build -- --watch` and", "check the output."]);
    const long = renderMarkdown("See `" + "a ".repeat(20).trim() + "` here.", plain, 20);
    expect(long.every((row) => Bun.stringWidth(row) <= 20)).toBe(true);
    expect(long.join(" ")).toContain("a a a");
  });

  test("a token longer than a row is cut; its continuation rows are marked", () => {
    const rows = renderMarkdown("```\n" + "x".repeat(50) + "\n```", plain, 30);
    expect(rows).toEqual(["  │ " + "x".repeat(26), "  ↪ " + "x".repeat(24)]);
  });

  test("code wraps at spaces, never inside a word, under its own indentation, with a continuation mark", () => {
    const rows = renderMarkdown("```ts\n    throw new RangeError(`size must be positive, got ${size}`);\n```", plain, 30);
    expect(rows.map((row) => row.trimEnd())).toEqual(["  │     throw new", "  ↪     RangeError(`size must", "  ↪     be positive, got", "  ↪     ${size}`);"]);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
  });
});

describe("streaming", () => {
  test("a line is rendered once it is complete; the line in progress is pending", () => {
    const stream = createMarkdownStream(tagged, () => 80);
    expect(stream.push("## Head")).toEqual([]);
    expect(stream.pending()).toEqual(["<h2>Head</h2>"]);
    expect(stream.push("ing\nThe **bo")).toEqual(["<h2>Heading</h2>"]);
    expect(stream.pending()).toEqual(["The **bo"]);
    expect(stream.push("ld** end")).toEqual([]);
    expect(stream.end()).toEqual(["The <b>bold</b> end"]);
  });

  test("an unclosed fence renders as code while it grows", () => {
    const stream = createMarkdownStream(tagged, () => 80);
    expect(stream.push("```python\ndef f():\n")).toEqual(["  │ <keyword>def</keyword> <title>f</title>():"]);
    expect(stream.push("    return '")).toEqual([]);
    expect(stream.pending()[0]).toStartWith("  │     <keyword>return</keyword>");
    expect(stream.end()).toHaveLength(1);
  });

  test("the width is read per line, so lines after a resize use the new width", () => {
    let width = 40;
    const stream = createMarkdownStream(plain, () => width);
    const before = stream.push("word ".repeat(12).trim() + "\n");
    width = 20;
    const after = stream.push("word ".repeat(12).trim() + "\n");
    expect(before.every((row) => row.length <= 40)).toBe(true);
    expect(after.every((row) => row.length <= 20)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
  });
});

test("highlighting is by highlight.js, and a language it does not know gives undefined", () => {
  expect(highlightCode('print("hi")', "py", (kind, t) => `<${kind}>${t}</${kind}>`)).toEqual(['<type>print</type>(<string>"hi"</string>)']);
  expect(highlightCode("a\nb", "nonesuch", id)).toBeUndefined();
  // A comment spanning lines is styled on each of them.
  expect(highlightCode("/* a\nb */", "js", (kind, t) => `<${kind}>${t}</${kind}>`)).toEqual(["<comment>/* a</comment>", "<comment>b */</comment>"]);
});

describe("wrapping lines", () => {
  test("continuation rows hang under the text after a mark", () => {
    expect(wrapLine("  ✗ read_file: no such file src/components/deeply/nested/a.ts", 30)).toEqual([
      "  ✗ read_file: no such file",
      "    src/components/deeply/nest",
      "    ed/a.ts",
    ]);
  });

  test("colour survives a break, and rows are cut with an ellipsis when asked", () => {
    const rows = wrapLine("\x1b[31mred words that wrap\x1b[39m", 10);
    expect(rows.map((r) => Bun.stripANSI(r))).toEqual(["red words", "that wrap"]);
    expect(rows[1]).toStartWith("\x1b[31m");
    expect(fitRow("abcdefghij", 5)).toBe("abcd…");
  });
});
