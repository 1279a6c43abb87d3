// Keys typed ahead during a turn must not answer the approval question that comes up in the
// middle of them (lib/prompt/type-ahead.ts): they go to the input line, which stays in sight.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, usePty, type Pty } from "./pty.ts";

const { serve, start } = usePty();
/** A person's typing speed: one key every so often, each its own write. */
const KEY_GAP_MS = 60;
/** Longer than the guard's quiet moment (ANSWER_QUIET_MS): the pause before a deliberate answer. */
const PAUSE_MS = 800;

async function typeSlowly(pty: Pty, keys: string): Promise<void> {
  for (const key of keys) {
    pty.write(key);
    await Bun.sleep(KEY_GAP_MS);
  }
}

test("letters typed ahead as the question appears go to the input, not to the question; a key after a pause answers", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "x.txt"), "TYPEAHEAD\n");
  const s = await serve(
    { text: "thinking about it a bit ".repeat(5), delayMs: 80, toolCalls: [{ name: "edit_file", input: { path: "x.txt", oldString: "TYPEAHEAD", newString: "AGAIN" } }] },
    { text: "done with the edit" },
  );
  const pty = await start({ baseURL: s.url, cwd, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("thinking about");

  // Typing on while the answer streams, until the question is up, then y, a and n without a break.
  let typed = "";
  const words = "and then your call then please run it ".repeat(20);
  for (const key of words) {
    if (pty.screen().includes("allow? y once")) break;
    pty.write(key);
    typed += key;
    await Bun.sleep(KEY_GAP_MS);
  }
  expect(pty.screen()).toContain("allow? y once");
  await typeSlowly(pty, "yan");
  typed += "yan";

  await pty.waitForInput(typed); // every key is in the input, none eaten
  expect(pty.screen()).toContain("(typing goes to the prompt below; pause a moment, then answer)");
  expect(pty.screen()).toContain("allow? y once · a always (every edit_file call) · n deny"); // still asked
  expect(pty.screen()).not.toContain("allowed once");
  expect(pty.screen()).not.toContain("what should shiro do instead?");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("TYPEAHEAD\n");

  // A paste, even of a lone y after a pause, is text for the input.
  await Bun.sleep(PAUSE_MS);
  pty.write("\x1b[200~y\x1b[201~");
  typed += "y";
  await pty.waitForInput(typed);
  expect(pty.screen()).not.toContain("allowed once");

  // The deliberate answer: y after the keyboard was quiet.
  await Bun.sleep(PAUSE_MS);
  pty.write("y");
  await pty.waitFor("allowed once");
  await pty.waitFor("done with the edit");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("AGAIN\n");
  await pty.waitForInput(typed); // the typed-ahead line is still there for the next prompt
  expect(s.requests).toHaveLength(2);
}, 30_000);

test("with a draft in progress, a word begun after a pause (yes…, a…, no…) is typing, not an answer; a lone y after a pause answers", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "x.txt"), "TYPEAHEAD\n");
  const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "x.txt", oldString: "TYPEAHEAD", newString: "AGAIN" } }] }, { text: "done with the edit" });
  const pty = await start({ baseURL: s.url, cwd, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("allow? y once");
  await Bun.sleep(PAUSE_MS);
  // A draft typed under the question, with pauses between its words longer than the quiet moment.
  let typed = "";
  for (const word of ["then ", "yes ", "add ", "a ", "note ", "no ", "more"]) {
    await typeSlowly(pty, word);
    typed += word;
    await Bun.sleep(PAUSE_MS);
  }
  await pty.waitForInput(typed);
  expect(pty.screen()).toContain("allow? y once · a always (every edit_file call) · n deny"); // still asked
  expect(pty.screen()).not.toContain("allowed once");
  expect(pty.screen()).not.toContain("what should shiro do instead?");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("TYPEAHEAD\n");

  // The deliberate answer: y alone, after a pause; the draft stays for the next prompt.
  pty.write("y");
  await pty.waitFor("allowed once");
  await pty.waitFor("done with the edit");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("AGAIN\n");
  await pty.waitForInput(typed);
}, 30_000);

test("esc right after the question appears still interrupts at once, however fast the typing", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "x.txt"), "TYPEAHEAD\n");
  const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "x.txt", oldString: "TYPEAHEAD", newString: "AGAIN" } }] });
  const pty = await start({ baseURL: s.url, cwd, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("allow? y once");
  await typeSlowly(pty, "ok");
  pty.write(KEYS.esc);
  await pty.waitFor("not run: interrupted");
  await pty.waitForPrompt(2);
  expect(pty.cursorLine()).toBe("› ok");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("TYPEAHEAD\n");
}, 20_000);

test("with a draft in progress, esc right after a held y interrupts: the call is not run, as the screen says", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "x.txt"), "TYPEAHEAD\n");
  const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "x.txt", oldString: "TYPEAHEAD", newString: "AGAIN" } }] });
  const pty = await start({ baseURL: s.url, cwd, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("allow? y once");
  await typeSlowly(pty, "draft ");
  await Bun.sleep(PAUSE_MS);
  // y after the pause is held (a word may follow); esc comes within the hold.
  pty.write("y");
  await Bun.sleep(KEY_GAP_MS);
  pty.write(KEYS.esc);
  await pty.waitFor("not run: interrupted");
  await pty.waitForPrompt(2);
  await Bun.sleep(300);
  expect(pty.screen()).not.toContain("allowed once");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("TYPEAHEAD\n");
  expect(s.requests).toHaveLength(1);
}, 20_000);
