import { expect, test } from "bun:test";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

// At 40 columns, 90 characters after "› " take three rows: 38, 40 and 12 characters.
const typed = "0123456789".repeat(9);

test("Up in a prompt that wraps moves up a row at the same column; the history comes from the first row", async () => {
  const s = await serve({ text: "first answer" }, { text: "second answer" });
  const pty = await start({ baseURL: s.url, cols: 40 });
  await pty.waitForPrompt(1);
  pty.line("first");
  await pty.waitFor("first answer");
  await pty.waitForPrompt(2);
  pty.write(typed);
  await pty.waitUntil("the three rows", () => pty.cursorLine() === typed.slice(78));
  expect(pty.cursorCol()).toBe(12);
  pty.write(KEYS.up);
  await pty.waitUntil("the cursor a row up", () => pty.cursorLine() === typed.slice(38, 78));
  expect(pty.cursorCol()).toBe(12);
  pty.write("X"); // lands at index 38 + 12
  await pty.waitUntil("X in the middle row", () => pty.cursorLine() === typed.slice(38, 50) + "X" + typed.slice(50, 77));
  pty.write(KEYS.up);
  await pty.waitUntil("the first row", () => pty.cursorLine().startsWith("› 0123"));
  expect(pty.cursorCol()).toBe(13);
  pty.write("Y"); // on the prompt's row the text starts at column 2: index 11
  // Up from the first row walks the history; Down comes back to the draft as it was.
  pty.write(KEYS.up);
  await pty.waitForInput("first");
  pty.write(KEYS.down);
  await pty.waitUntil("the draft back", () => pty.screen().includes("› " + typed.slice(0, 11) + "Y" + typed.slice(11, 37)));
  pty.write(KEYS.enter);
  await pty.waitFor("second answer");
  expect(lastUserText(s.requests[1]!.body)).toBe(typed.slice(0, 11) + "Y" + typed.slice(11, 50) + "X" + typed.slice(50));
}, 20_000);

test("Down moves down the rows of a wrapped prompt, then to the history only from the last row", async () => {
  const s = await serve({ text: "sent" });
  const pty = await start({ baseURL: s.url, cols: 40 });
  await pty.waitForPrompt(1);
  pty.write(typed);
  await pty.waitUntil("the three rows", () => pty.cursorLine() === typed.slice(78));
  pty.write("\x01"); // ctrl-a, home: the start of the line, on the first row
  await pty.waitUntil("the cursor at the start", () => pty.cursorLine().startsWith("› ") && pty.cursorCol() === 2);
  pty.write(KEYS.down);
  await pty.waitUntil("the second row", () => pty.cursorLine() === typed.slice(38, 78));
  expect(pty.cursorCol()).toBe(2);
  pty.write(KEYS.down);
  await pty.waitUntil("the last row", () => pty.cursorLine() === typed.slice(78));
  expect(pty.cursorCol()).toBe(2);
  pty.write("Z");
  pty.write(KEYS.down); // the last row: nothing newer in the history, the text stays
  await pty.waitUntil("Z on the last row", () => pty.cursorLine() === typed.slice(78, 80) + "Z" + typed.slice(80));
  pty.write(KEYS.enter);
  await pty.waitFor("sent");
  expect(lastUserText(s.requests[0]!.body)).toBe(typed.slice(0, 80) + "Z" + typed.slice(80));
}, 20_000);

test("Up walks past a prompt of several lines in one press: it comes back with the cursor on its first row, and Down brings it back with the cursor on its last row", async () => {
  const s = await serve({ text: "one" }, { text: "two" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("oldest");
  await pty.waitForPrompt(2);
  pty.write("line one\nline two\nline three"); // ctrl-j: new lines in the prompt
  pty.write(KEYS.enter);
  await pty.waitForPrompt(3);
  pty.write(KEYS.up);
  await pty.waitForInput("line one");
  expect(pty.cursorCol()).toBe("› line one".length);
  pty.write(KEYS.up);
  await pty.waitForInput("oldest");
  pty.write(KEYS.down);
  await pty.waitUntil("the newer prompt back, the cursor at its end", () => pty.cursorLine() === "  line three");
}, 20_000);
