import { expect, test } from "bun:test";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

test("at 50 columns code in an answer wraps at spaces with a continuation mark, never inside a word", async () => {
  const code = "    if (size <= 0) throw new RangeError(`size must be positive, got ${size}`);";
  const s = await serve({ text: "The check:\n\n```ts\n" + code + "\n```\n\nThat is all." });
  const pty = await start({ baseURL: s.url, cols: 50 });
  await pty.waitForPrompt(1);
  pty.line("show the check");
  await pty.waitFor("That is all.");
  const rows = pty.screen().split("\n");
  const first = rows.findIndex((row) => row.startsWith("  │ "));
  const block: string[] = [rows[first]!];
  for (let i = first + 1; rows[i]!.startsWith("  ↪ "); i++) block.push(rows[i]!);
  expect(block.length).toBeGreaterThan(1);
  // Read back together (a break is the one space between rows), the rows are the line as written.
  expect(block.map((row) => row.slice(4).trim()).join(" ")).toBe(code.trim());
  // Each break falls at a space of the code: no word is split between rows.
  const words = code.trim().split(/\s+/);
  for (const row of block) for (const piece of row.slice(4).trim().split(/\s+/)) expect(words).toContain(piece);
}, 20_000);
