import { expect, test } from "bun:test";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();
const LEFT = "\x1b[D";
const RIGHT = "\x1b[C";
const BACKSPACE = "\x7f";
const HOME = "\x01";
const WORD_LEFT = "\x1bb"; // alt-b

test("arrows, backspace and delete in the input take an emoji with its skin tone or its joined family whole, and the cursor sits where it shows", async () => {
  const s = await serve({ text: "got the emoji" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);

  pty.write("A👍🏽B");
  await pty.waitForInput("A👍🏽B");
  pty.write(LEFT + LEFT + "Z");
  await pty.waitForInput("AZ👍🏽B");
  expect(pty.cursorCol()).toBe(4); // "› " and A and Z: the cursor is on the emoji, two columns wide

  pty.write(RIGHT);
  await pty.waitUntil("the cursor past the emoji", () => pty.cursorCol() === 6);
  pty.write(BACKSPACE);
  await pty.waitForInput("AZB");

  pty.write(KEYS.ctrlC + "ab 👨‍👩‍👧");
  await pty.waitForInput("ab 👨‍👩‍👧");
  expect(pty.cursorCol()).toBe(7);
  pty.write(BACKSPACE);
  await pty.waitForInput("ab");

  pty.write("👨‍👩‍👧x" + WORD_LEFT);
  await pty.waitUntil("the cursor at the word's start", () => pty.cursorCol() === 5);
  pty.write(KEYS.ctrlD); // on text: deletes the character under the cursor, the whole family
  await pty.waitForInput("ab x");
  pty.write(HOME + "中" + KEYS.enter);
  await pty.waitFor("got the emoji");
  expect(lastUserText(s.requests[0]!.body)).toBe("中ab x");
}, 20_000);
