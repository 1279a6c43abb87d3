import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/cli.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

const OSC9 = "\x1b]9;shiro: ";
const count = (text: string, part: string) => text.split(part).length - 1;

test("a terminal that lost focus gets OSC 9 when a turn ends; a focused one gets nothing", async () => {
  const s = await serve({ text: "first" }, { text: "second" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  // shiro asks whether the terminal reports focus, then turns the reports on.
  expect(pty.raw()).toContain("\x1b[?1004$p");
  expect(pty.raw()).toContain("\x1b[?1004h");
  pty.write("\x1b[I");
  pty.line("one");
  await pty.waitFor("first");
  await pty.waitForPrompt(2);
  pty.write("\x1b[O");
  pty.line("two");
  await pty.waitFor("second");
  await pty.waitUntil("the desktop notification", () => pty.raw().includes(OSC9));
  expect(count(pty.raw(), OSC9)).toBe(1); // the focused turn's end said nothing
  expect(pty.raw()).toContain(`${OSC9}the turn is done; shiro is waiting for your input\x07`);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
  // Focus reporting is given back with the terminal.
  expect(pty.raw().lastIndexOf("\x1b[?1004l")).toBeGreaterThan(pty.raw().lastIndexOf("\x1b[?1004h"));
}, 30_000);

test("a terminal that does not answer the probe: a long turn counts as looked away, until the terminal answers", async () => {
  const s = await serve({ text: "first" }, { text: "second" });
  // Every turn counts as long here; the vt emulator does not answer DECRQM.
  const pty = await start({ baseURL: s.url, env: { SHIRO_NOTIFY_LONG_MS: "0" } });
  await pty.waitForPrompt(1);
  pty.line("one");
  await pty.waitFor("first");
  await pty.waitUntil("the desktop notification", () => pty.raw().includes(OSC9));
  await pty.waitForPrompt(2);
  pty.write("\x1b[?1004;2$y"); // the answer: focus reports are known, and the terminal has focus
  pty.line("two");
  await pty.waitFor("second");
  await pty.waitForPrompt(3);
  expect(count(pty.raw(), OSC9)).toBe(1);
}, 30_000);

test("a short turn without focus reports says nothing", async () => {
  const s = await serve({ text: "quick" }, { text: "again" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("one");
  await pty.waitFor("quick");
  await pty.waitForPrompt(2);
  pty.line("two"); // a second turn end after the first: the first had time to write
  await pty.waitFor("again");
  await pty.waitForPrompt(3);
  expect(pty.raw()).not.toContain(OSC9);
  expect(pty.raw()).not.toContain("\x07"); // no bell either
}, 30_000);

test("focus reports typed among keys never reach the input", async () => {
  const s = await serve({ text: "unused" });
  serve.allowLeftovers("no prompt is sent");
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("ab\x1b[O\x1b[Icd\x1b[?1004;1$y");
  await pty.waitForInput("abcd");
}, 30_000);

test("config notify as a command gets the event as JSON on stdin, and the terminal gets no escape sequence", async () => {
  const home = tempDir("shiro-home-");
  const seen = join(tempDir("shiro-seen-"), "notified.json");
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ notify: `cat > ${seen}` }));
  const s = await serve({ text: "done here" });
  const pty = await start({ baseURL: s.url, home });
  await pty.waitForPrompt(1);
  pty.write("\x1b[O");
  pty.line("go");
  await pty.waitFor("done here");
  const whole = () => {
    try {
      return JSON.parse(readFileSync(seen, "utf8"));
    } catch {
      return undefined;
    }
  };
  for (let i = 0; i < 50 && !(existsSync(seen) && whole()); i++) await Bun.sleep(100);
  expect(whole()).toMatchObject({ event: "turn-end", summary: "the turn is done; shiro is waiting for your input" });
  expect(whole().session).toMatch(/\S/);
  expect(pty.raw()).not.toContain(OSC9);
}, 30_000);

test("a question waiting in a terminal that lost focus is told at once, with what it asks about", async () => {
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made" } }] }, { text: "ran it" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("\x1b[O");
  pty.line("run it");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  await pty.waitUntil("the desktop notification", () => pty.raw().includes(`${OSC9}shiro needs your permission to run bash: `));
  const told = pty.raw().slice(pty.raw().indexOf(OSC9));
  expect(told.slice(0, told.indexOf("\x07"))).toContain("shiro needs your permission to run bash: touch made");
  pty.write("y");
  await pty.waitFor("ran it");
  await pty.waitUntil("the turn's end told too", () => count(pty.raw(), OSC9) === 2);
}, 30_000);

test("focus reporting is off while $PAGER has the terminal, and on again after", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "echo paged-line" } }] }, { text: "ran it" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"], env: { PAGER: `printf PAGER-RAN; cat > '${join(cwd, "paged.txt")}'` } });
  await pty.waitForPrompt(1);
  pty.line("run it");
  await pty.waitFor("ran it");
  await pty.waitForPrompt(2);
  pty.line("/last");
  await pty.waitUntil("the pager", () => existsSync(join(cwd, "paged.txt")) && readFileSync(join(cwd, "paged.txt"), "utf8").includes("paged-line"));
  await pty.waitUntil("focus reporting back on", () => pty.raw().lastIndexOf("\x1b[?1004h") > pty.raw().indexOf("PAGER-RAN"));
  const raw = pty.raw();
  const pager = raw.indexOf("PAGER-RAN");
  const before = raw.slice(0, pager);
  expect(before.lastIndexOf("\x1b[?1004l")).toBeGreaterThan(before.lastIndexOf("\x1b[?1004h"));
}, 30_000);

test("headless output never carries a notification, even with every turn counted as long", async () => {
  const s = await serve({ text: "headless answer" });
  const run = await runShiro(["-p", "hi"], { baseURL: s.url, env: { SHIRO_NOTIFY_LONG_MS: "0", TMUX: undefined } });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("headless answer");
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain("\x1b]9;");
    expect(text).not.toContain("\x07");
    expect(text).not.toContain("\x1b[?1004");
  }
}, 30_000);

test("coming back to the terminal is not typing: y right after the focus-in answers the question", async () => {
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made" } }] }, { text: "ran it" });
  // The type-ahead guard as a person has it: a key answers once the keyboard was quiet 0.45 s.
  const pty = await start({ baseURL: s.url, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.write("\x1b[O");
  pty.line("run it");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  await Bun.sleep(700); // the user reads the question elsewhere, then clicks back
  pty.write("\x1b[I");
  pty.write("y");
  await pty.waitFor("ran it");
  expect(existsSync(join(pty.cwd, "made"))).toBe(true);
}, 30_000);
