import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { historyPath } from "../../lib/prompt/history.ts";
import type { Reply } from "../support/fake-openai.ts";
import { tempDir } from "../support/cli.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

test("Up and Down walk the history, and Down past the newest restores the draft", async () => {
  const s = await serve({ text: "answer one" }, { text: "answer two" }, { text: "answer three" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("first prompt");
  await pty.waitForPrompt(2);
  pty.line("second prompt");
  await pty.waitForPrompt(3);

  pty.write("my draft");
  await pty.waitForInput("my draft");
  pty.write(KEYS.up);
  await pty.waitForInput("second prompt");
  pty.write(KEYS.up);
  await pty.waitForInput("first prompt");
  pty.write(KEYS.up); // the oldest: stays
  pty.write(KEYS.down);
  await pty.waitForInput("second prompt");
  pty.write(KEYS.down);
  await pty.waitForInput("my draft");

  pty.write(KEYS.enter);
  await pty.waitFor("answer three");
  expect(lastUserText(s.requests[2]!.body)).toBe("my draft");
}, 20_000);

test("the history file is capped at 200 and does not repeat the previous entry", async () => {
  const s = await serve({ text: "r1" }, { text: "r2" }, { text: "r3" });
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const file = historyPath(join(home, ".shiro-neko"), cwd);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ project: cwd, entries: Array.from({ length: 199 }, (_, i) => `old ${i}`) }));

  const pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.write(KEYS.up); // what earlier sessions typed is there from the start
  await pty.waitForInput("old 198");
  pty.write(KEYS.down);
  await pty.waitForInput("");

  for (const prompt of ["p1", "p1", "p2"]) pty.line(prompt); // typed ahead: queued, then run in order
  await pty.waitFor("r3");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);

  const entries: string[] = JSON.parse(readFileSync(file, "utf8")).entries;
  expect(entries).toHaveLength(200);
  expect(entries[0]).toBe("old 1");
  expect(entries.slice(-3)).toEqual(["old 198", "p1", "p2"]);
}, 20_000);

test("a corrupt history file is set aside with a notice and the loop still works", async () => {
  const s = await serve({ text: "still fine" });
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const file = historyPath(join(home, ".shiro-neko"), cwd);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "{ this is not json");

  const pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor("could not be read");
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("still fine");
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
  expect(JSON.parse(readFileSync(file, "utf8")).entries).toEqual(["hello"]);
}, 20_000);
