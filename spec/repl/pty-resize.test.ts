import { expect, test } from "bun:test";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

// A terminal that rewraps its lines when it gets narrower (tmux, VTE, kitty, iTerm2): the live
// area drawn at the old width then takes more rows, and all of them must be erased.

const count = (text: string, part: string) => text.split(part).length - 1;

test("narrowing the terminal while a question is up leaves one allow? row, and the question still answers", async () => {
  const command = "touch " + "a-rather-long-file-name ".repeat(3).trim();
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "made them" });
  const pty = await start({ baseURL: s.url, cols: 100, reflow: true });
  await pty.waitForPrompt(1);
  pty.line("make files");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?") && pty.cursorLine().includes("esc interrupts"));
  expect(count(pty.screen(), "allow?")).toBe(1);
  let mark = pty.raw().length;
  pty.resize(50);
  // Redrawn at 50 columns: the question's choices wrap under it.
  await pty.waitUntil("the question redrawn at 50 columns", () => pty.raw().slice(mark).includes("esc interrupts"));
  expect(count(pty.screen(), "allow?")).toBe(1);
  mark = pty.raw().length;
  pty.resize(30);
  await pty.waitUntil("the question redrawn at 30 columns", () => pty.raw().slice(mark).includes("interrupts"));
  expect(count(pty.screen(), "allow?")).toBe(1);
  for (const row of pty.screen().split("\n").slice(-4)) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
  pty.write("y");
  await pty.waitFor("made them");
  expect(count(pty.screen(), "allow?")).toBe(0); // the answered question is gone from the live area
}, 30_000);

test("narrowing the terminal under a long typed prompt leaves the prompt once, still editable", async () => {
  const s = await serve({ text: "got it" });
  const pty = await start({ baseURL: s.url, cols: 160, reflow: true });
  await pty.waitForPrompt(1);
  const typed = Array.from({ length: 14 }, (_, i) => `word${String(i).padStart(2, "0")}`).join(" ") + " the end";
  pty.write(typed);
  await pty.waitForInput(typed);
  const mark = pty.raw().length;
  pty.resize(40);
  await pty.waitUntil("the prompt redrawn at 40 columns", () => pty.raw().slice(mark).includes("the end"));
  expect(count(pty.screen(), "word00")).toBe(1);
  expect(count(pty.screen(), "the end")).toBe(1);
  pty.write(KEYS.enter);
  await pty.waitFor("got it");
}, 30_000);
