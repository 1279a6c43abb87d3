import { expect, test } from "bun:test";
import type { Reply } from "../support/fake-openai.ts";
import { KEYS, userTexts, usePty } from "./pty.ts";
import { INTERRUPTION_NOTE } from "../../lib/text/interruption.ts";

const { serve, start } = usePty();

/** Text of every assistant message in a request (Responses items or chat messages). */
function assistantText(body: any): string {
  const items: any[] = Array.isArray(body.input) ? body.input : body.messages;
  return items
    .filter((item) => item.role === "assistant")
    .map((item) => (typeof item.content === "string" ? item.content : (item.content ?? []).map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

test("prompts typed during a slow turn are queued and run in order when it ends", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(20) + "done.", delayMs: 50 }, { text: "reply to second" }, { text: "reply to third" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("first");
  await pty.waitFor("slowly");
  pty.line("second");
  pty.line("third");
  await pty.waitFor("queued (2): second · third");
  expect(s.requests).toHaveLength(1); // nothing is sent while the turn runs
  await pty.waitFor("reply to third");
  await pty.waitForPrompt(2);

  expect(s.requests.map((r) => userTexts(r.body))).toEqual([["first"], ["first", "second"], ["first", "second", "third"]]);
  const screen = pty.screen();
  const order = ["› first", "done.", "› second", "reply to second", "› third", "reply to third"].map((t) => screen.indexOf(t));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(order.every((i) => i >= 0)).toBe(true);
}, 20_000);

test("a queued slash command behaves as typed", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(10) + "done.", delayMs: 40 });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("slowly");
  pty.line("/todos");
  await pty.waitFor("The task list is empty.");
  expect(s.requests).toHaveLength(1);
}, 20_000);

test("esc aborts the turn, keeps the partial text, clears the queue, and the next request is valid", async () => {
  const s = await serve({ text: "partial " + "words ".repeat(200), delayMs: 40 }, { text: "fresh answer" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("long one");
  await pty.waitFor("partial words");
  pty.line("never sent");
  await pty.waitFor("queued (1): never sent");
  pty.write(KEYS.esc);
  await pty.waitFor("interrupted");
  await pty.waitFor("dropped 1 queued prompt");
  await pty.waitForPrompt(2);
  // Said under the turn's text and its end, not above text that was still streaming.
  const screen = pty.screen();
  expect(screen.indexOf("dropped 1 queued prompt")).toBeGreaterThan(screen.lastIndexOf("partial words"));
  expect(screen.indexOf("dropped 1 queued prompt")).toBeGreaterThan(screen.indexOf("interrupted"));
  expect(s.requests).toHaveLength(1);

  pty.line("next");
  await pty.waitFor("fresh answer");
  expect(s.requests).toHaveLength(2);
  expect(userTexts(s.requests[1]!.body)).toEqual(["long one", INTERRUPTION_NOTE, "next"]);
  expect(assistantText(s.requests[1]!.body)).toStartWith("partial words");
}, 20_000);

test("quitting discards the queue", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(200), delayMs: 40 });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("slowly");
  pty.line("queued thought");
  await pty.waitFor("queued (1)");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
  expect(s.requests).toHaveLength(1);
}, 20_000);

test("up with prompts queued takes the newest one back to edit, instead of the history; enter queues it once, edited", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(80) + "done.", delayMs: 80 }, { text: "reply to second" }, { text: "reply to edited" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("first");
  await pty.waitFor("slowly");
  pty.line("second");
  pty.line("thrid");
  await pty.waitFor("queued (2): second · thrid");
  pty.write(KEYS.up);
  await pty.waitForInput("thrid"); // not "first", the history's newest
  await pty.waitFor(/queued \(1\): second(?! ·)/);
  pty.write("\x7f\x7f\x7fird");
  pty.write(KEYS.enter);
  await pty.waitFor("queued (2): second · third");
  await pty.waitFor("reply to edited");
  await pty.waitForPrompt(2);
  // Each queued prompt was sent once, the edited one as edited.
  expect(s.requests.map((r) => userTexts(r.body).at(-1))).toEqual(["first", "second", "third"]);
}, 20_000);
