import { expect, test } from "bun:test";
import { wrapLine, wrapQuestion } from "../../lib/text/wrap.ts";

const GREEN = "\x1b[32m";
const long = Array.from({ length: 12 }, (_, i) => `word${i}`).join(" ");

test("a wrapped + or - diff line keeps its indentation, and its continuation rows are marked as such in its colour, under the code's own indentation", () => {
  const added = `    ${GREEN}+    # a long comment line that is definitely wider than forty columns of terminal\x1b[39m`;
  const rows = wrapLine(added, 40);
  expect(rows.map((row) => Bun.stripANSI(row))).toEqual([
    "    +    # a long comment line that is ",
    "    ↪    definitely wider than forty ",
    "    ↪    columns of terminal",
  ]);
  for (const row of rows) {
    expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(row).toStartWith(`    ${GREEN}`);
  }
  // A removed line indented by spaces is a diff line, not a "- " list item.
  expect(wrapLine(`-        return ${long}`, 40).map((row) => Bun.stripANSI(row))).toEqual([
    "-        return word0 word1 word2 word3 ",
    "↪        word4 word5 word6 word7 word8 ",
    "↪        word9 word10 word11",
  ]);
});

test("a line that only starts like a diff line (a flag, a rule, a list item) wraps as plain text, without the diff's mark", () => {
  const flag = wrapLine("--yolo: edits and commands run without asking", 40);
  expect(flag).toEqual(["--yolo: edits and commands run without", "asking"]);
  expect(wrapLine(`- an item that goes on: ${long}`, 40).every((row, i) => i === 0 || row.startsWith("  "))).toBe(true);
  expect(wrapLine(`- an item that goes on: ${long}`, 40).join("\n")).not.toContain("↪");
});

test("opts.hang indents continuation rows at least that far", () => {
  const rows = wrapLine(`bash wants to run: ${long}`, 40, { hang: 2 });
  expect(rows.slice(1).every((row) => /^ {2}\S/.test(row))).toBe(true);
  expect(wrapLine(`bash wants to run: ${long}`, 40)[1]).toMatch(/^\S/);
});

test("a question's choices stay on one row: on the last row when they fit, else on their own", () => {
  const question = "a.txt changed after that turn. Overwrite it with the version from before the turn? y overwrite · n cancel ";
  const wide = wrapQuestion(question, 120);
  expect(wide).toEqual([question]);
  const rows = wrapQuestion(question, 60);
  expect(rows.at(-1)).toContain("y overwrite · n cancel");
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
  expect(rows.filter((row) => row.includes("overwrite ·"))).toHaveLength(1);
  // Exactly where the body ends near the edge: the choices go below.
  const tight = wrapQuestion("Overwrite the file from before? y overwrite · n cancel ", 34);
  expect(tight).toEqual(["Overwrite the file from before?", "  y overwrite · n cancel "]);
  // The trailing space counts: the cursor waits after it, and a row as wide as the terminal would push it below.
  expect(wrapQuestion("Overwrite the file from before? y overwrite · n cancel ", 55)).toEqual(["Overwrite the file from before? y overwrite · n cancel "]);
  expect(wrapQuestion("Overwrite the file from before? y overwrite · n cancel ", 54)).toEqual(["Overwrite the file from before?", "  y overwrite · n cancel "]);
});

test("choices longer than a row wrap like the rest of the question", () => {
  const question = "bash wants to run: make — allow? y once · a always (this exact bash command) · n deny · esc interrupts";
  const rows = wrapQuestion(question, 40);
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
  expect(rows.join(" ").replace(/\s+/g, " ")).toBe(question);
});

test("a note or an error that wraps hangs under its text, past the label; other words before a colon do not", () => {
  const rows = wrapLine("note: provider returned 500: The server had an error; retrying in 1s (attempt 2 of 4)", 40);
  expect(rows.length).toBeGreaterThan(1);
  expect(rows[0]).toStartWith("note: provider returned 500:");
  expect(rows.slice(1).every((row) => /^ {6}\S/.test(row))).toBe(true);
  expect(wrapLine(`  error: ${long}`, 40).slice(1).every((row) => /^ {9}\S/.test(row))).toBe(true);
  expect(wrapLine(`bash wants to run: ${long}`, 40)[1]).toMatch(/^\S/);
});
