import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inboxPath, memoryStorePath, serializeMemory, SUGGESTION_INSTRUCTIONS_START } from "../../lib/memory/index.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";
import { tempDir } from "../support/cli.ts";
import { instructionsIn, WIRES } from "../support/requests.ts";
import { KEYS, usePty, userTexts } from "./pty.ts";

const { serve, start } = usePty();
const CTRL_U = "\x15";
const write = (path: string, content: string) => ({ toolCalls: [{ name: "write_file", input: { path, content } }] });
/** The suggestion call's reply, answered only to that call. */
const suggests = (...lines: string[]) => ({ text: lines.join("\n"), when: { instructions: SUGGESTION_INSTRUCTIONS_START } });

/** A project whose memory holds `texts` (as facts) before shiro starts. */
function project(...texts: string[]) {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  mkdirSync(join(cwd, ".git"));
  const path = memoryStorePath(join(home, ".shiro-neko"), cwd);
  if (texts.length > 0) {
    mkdirSync(dirname(path), { recursive: true });
    const entries: MemoryEntry[] = texts.map((text, i) => ({ id: `seed-${i}`, kind: "fact", text, createdAt: "2026-12-01T10:00:00.000Z", hits: 0 }));
    writeFileSync(path, serializeMemory(entries));
  }
  const notes = (): string[] => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).entries.map((e: MemoryEntry) => `(${e.kind}) ${e.text}`) : []);
  return { home, cwd, notes };
}

for (const { wire, flags } of WIRES)
test(`over ${wire}: at ctrl-d the suggested notes are asked about one by one: y keeps, n writes nothing, e edits first; a note the store holds is never shown`, async () => {
  const { home, cwd, notes } = project("The API is versioned under /v2.");
  const s = await serve(
    write("migrate.sql", "create table users;\n"),
    { text: "wrote the migration" },
    suggests(
      "(fact) the API is versioned under   /v2.",
      "(command) tests run with `bun test`, not `npm test`",
      "(decision) tabs over spaces because the linter says so",
      "(gotcha) the seed must run after the migration",
    ),
  );
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo", ...flags] });
  await pty.waitForPrompt(1);
  pty.line("write the migration");
  await pty.waitFor("wrote the migration");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.waitFor("3 notes suggested for project memory; nothing is kept unless you say so:");
  expect(pty.screen()).not.toContain("versioned under   /v2");
  await pty.waitFor("1/3 (command) tests run with `bun test`, not `npm test`");
  pty.write("y");
  await pty.waitFor("kept: (command) tests run with `bun test`, not `npm test`");
  await pty.waitFor("2/3 (decision) tabs over spaces");
  pty.write("n");
  await pty.waitFor("dropped");
  await pty.waitFor("3/3 (gotcha) the seed must run after the migration");
  pty.write("e");
  await pty.waitFor("edit the note (enter keeps it, esc goes back): (gotcha) the seed must run after the migration");
  pty.write(CTRL_U);
  pty.line("(gotcha) the seed runs after the migration, or the foreign key on users.org_id fails");
  await pty.waitFor("kept: (gotcha) the seed runs after the migration, or the foreign key on users.org_id fails");
  expect(await pty.exited).toBe(0);

  expect(notes()).toEqual([
    "(fact) The API is versioned under /v2.",
    "(command) tests run with `bun test`, not `npm test`",
    "(gotcha) the seed runs after the migration, or the foreign key on users.org_id fails",
  ]);
  // One call, over the session's work, told what memory holds already.
  const call = s.requests.at(-1)!.body;
  expect(instructionsIn(call)).toStartWith(SUGGESTION_INSTRUCTIONS_START);
  const asked = userTexts(call).join("\n");
  expect(asked).toContain("(fact) The API is versioned under /v2.");
  expect(asked).toContain("write the migration");
  expect(asked).toContain("migrate.sql");
}, 30_000);

test("esc skips the suggestions and nothing is written; a session that changed no file in a few steps makes no suggestion call", async () => {
  const { home, cwd, notes } = project();
  const quiet = await serve({ text: "hello" });
  const first = await start({ baseURL: quiet.url, home, cwd, args: ["--yolo"] });
  await first.waitForPrompt(1);
  first.line("hi");
  await first.waitFor("hello");
  await first.waitForPrompt(2);
  first.line("/exit");
  expect(await first.exited).toBe(0);
  expect(quiet.requests).toHaveLength(1); // the strict server would also reject an unscripted call

  const s = await serve(write("a.txt", "a\n"), { text: "done" }, suggests("(fact) a.txt holds the letter a", "(fact) b.txt is not there"));
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("write a");
  await pty.waitFor("done");
  await pty.waitForPrompt(2);
  pty.line("/exit");
  await pty.waitFor("1/2 (fact) a.txt holds the letter a");
  pty.write(KEYS.esc);
  await pty.waitFor("Skipped the 2 left: nothing more was kept.");
  expect(await pty.exited).toBe(0);
  expect(notes()).toEqual([]);
}, 30_000);

test("/compact asks about the suggested notes first, then replaces the transcript", async () => {
  const { home, cwd, notes } = project();
  const summary = "## Goal\nwrite a\n## Files touched\na.txt\n## Decisions\nnone\n## Commands and outcomes\nnone\n## What remains\nnothing";
  const s = await serve(write("a.txt", "a\n"), { text: "done" }, suggests("(fact) a.txt holds the letter a"), { text: summary });
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("write a");
  await pty.waitFor("done");
  await pty.waitForPrompt(2);
  pty.line("/compact");
  await pty.waitFor("1/1 (fact) a.txt holds the letter a");
  pty.write("y");
  await pty.waitFor("Compacted: ");
  expect(notes()).toEqual(["(fact) a.txt holds the letter a"]);
  expect(instructionsIn(s.requests[2]!.body)).toStartWith(SUGGESTION_INSTRUCTIONS_START);
  // Nothing new since: leaving makes no second call (the strict server has no reply for one).
  await pty.waitForPrompt(3);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
  expect(s.requests).toHaveLength(4);
}, 30_000);

test("letters typed on as the note question appears keep nothing (they go to the input); a y after a pause keeps the note", async () => {
  const { home, cwd, notes } = project();
  const summary = "## Goal\nwrite a\n## Files touched\na.txt\n## Decisions\nnone\n## Commands and outcomes\nnone\n## What remains\nnothing";
  const s = await serve(write("a.txt", "a\n"), { text: "done" }, suggests("(fact) a.txt holds the letter a"), { text: summary });
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"], env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("write a");
  await pty.waitFor("done");
  await pty.waitForPrompt(2);
  pty.line("/compact");
  // Typing on (the next prompt, "yes yes …") while the suggestion call runs and as its question comes up.
  for (const key of "yes yes yes yes yes yes yes yes yes yes ") {
    pty.write(key);
    await Bun.sleep(60);
  }
  await pty.waitFor("1/1 (fact) a.txt holds the letter a");
  for (const key of "yyy") {
    pty.write(key);
    await Bun.sleep(60);
  }
  await Bun.sleep(300);
  expect(pty.screen()).not.toContain("kept: (fact)");
  expect(notes()).toEqual([]);
  // The deliberate answer: y after the keyboard was quiet.
  await Bun.sleep(800);
  pty.write("y");
  await pty.waitFor("kept: (fact) a.txt holds the letter a");
  await pty.waitFor("Compacted: ");
  expect(notes()).toEqual(["(fact) a.txt holds the letter a"]);
  pty.write(CTRL_U); // the typed-ahead words, still in the input
  await pty.waitForPrompt(3);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 30_000);

test('with "memorySuggestions": "inbox" the loop puts the notes in the inbox and asks nothing; --no-memory makes no call', async () => {
  const { home, cwd, notes } = project();
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ memorySuggestions: "inbox" }));
  const s = await serve(write("a.txt", "a\n"), { text: "done" }, suggests("(fact) a.txt holds the letter a"));
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("write a");
  await pty.waitFor("done");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.waitFor("1 suggested note for project memory in the inbox: shiro memory inbox lists it");
  expect(await pty.exited).toBe(0);
  expect(notes()).toEqual([]);
  const inbox = JSON.parse(readFileSync(inboxPath(join(home, ".shiro-neko"), cwd), "utf8"));
  expect(inbox.suggestions.map((n: { text: string }) => n.text)).toEqual(["a.txt holds the letter a"]);

  // The same work with --no-memory: no suggestion call (none is scripted).
  const t = await serve(write("b.txt", "b\n"), { text: "done" });
  const off = await start({ baseURL: t.url, home, cwd, args: ["--yolo", "--no-memory"] });
  await off.waitForPrompt(1);
  off.line("write b");
  await off.waitFor("done");
  await off.waitForPrompt(2);
  off.write(KEYS.ctrlD);
  expect(await off.exited).toBe(0);
  expect(t.requests).toHaveLength(2);
}, 30_000);
