import { expect, test } from "bun:test";
import { wrapLine } from "../../lib/text/wrap.ts";

const GREEN = "\x1b[32m";
const long = Array.from({ length: 12 }, (_, i) => `word${i}`).join(" ");

test("a wrapped + or - diff line hangs past its marker, and its continuation keeps the line's colour", () => {
  const rows = wrapLine(`    ${GREEN}+${long}\x1b[39m`, 40);
  expect(rows.length).toBeGreaterThan(1);
  expect(Bun.stripANSI(rows[0]!)).toStartWith("    +word0 ");
  for (const row of rows.slice(1)) {
    expect(Bun.stripANSI(row)).toMatch(/^ {5}\S/);
    expect(row).toContain(GREEN);
  }
  expect(Bun.stripANSI(wrapLine(`-${long}`, 40)[1]!)).toMatch(/^ \S/);
});

test("opts.hang indents continuation rows at least that far", () => {
  const rows = wrapLine(`bash wants to run: ${long}`, 40, { hang: 2 });
  expect(rows.slice(1).every((row) => /^ {2}\S/.test(row))).toBe(true);
  expect(wrapLine(`bash wants to run: ${long}`, 40)[1]).toMatch(/^\S/);
});
