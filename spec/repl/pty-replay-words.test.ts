import { expect, test } from "bun:test";
import { REPLAY_END } from "../../cmd/repl/replay.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

const SUMMARY = ["## Goal", "speed up the parser", "## Files touched", "src/parse.ts: a faster tokenizer", "## Commands and outcomes", "bench: 412 ms before, 97 ms after", "## What remains", "profile the lexer"].join("\n");

test("/compact with a focus: the focus reaches the summary request, the summary is shown, and a resumed replay shows it as a summary", async () => {
  const s = await serve({ text: "an answer" }, { text: SUMMARY });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("make the parser faster");
  await pty.waitFor("an answer");
  await pty.waitForPrompt(2);
  pty.line("/compact keep the benchmark numbers");
  await pty.waitFor("Compacted:");
  // The focus is in the request that asks for the summary.
  expect(lastUserText(s.requests[1]!.body)).toContain("focus on: keep the benchmark numbers");
  // The summary made is on the screen, above the line that says it replaced the conversation.
  const screen = pty.screen();
  expect(screen).toContain("── summary of the conversation so far");
  expect(screen).toContain("bench: 412 ms before, 97 ms after");
  expect(screen.indexOf("bench: 412 ms")).toBeLessThan(screen.indexOf("Compacted:"));
  pty.line("/exit");
  await pty.exited;

  const again = await start({ baseURL: s.url, home: pty.home, cwd: pty.cwd, args: ["-c"] });
  await again.waitFor(REPLAY_END);
  const replay = again.screen();
  expect(replay).toContain("── summary of the conversation before /compact");
  expect(replay).toContain("bench: 412 ms before, 97 ms after");
  // Not as a prompt the user typed, and not the words written for the model.
  expect(replay).not.toContain("This session was compacted");
  expect(replay).not.toMatch(/› .*Goal/);
}, 30_000);

test("a resumed session's replay keeps what the user told the model when denying a call", async () => {
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "c.txt", content: "c\n" } }] }, { text: "will use notes.txt" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("write c");
  await pty.waitUntil("the write question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write("put it in notes.txt" + KEYS.enter);
  await pty.waitFor("will use notes.txt");
  await pty.waitForPrompt(2);
  pty.line("/exit");
  await pty.exited;

  const again = await start({ baseURL: s.url, home: pty.home, cwd: pty.cwd, args: ["-c"] });
  await again.waitFor(REPLAY_END);
  expect(again.screen()).toMatch(/⊘ write_file c\.txt: not run \(declined\); you told the model: put it in notes\.txt/);
}, 30_000);
