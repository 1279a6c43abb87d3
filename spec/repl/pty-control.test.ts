// The prompt the way people type it, and answers with more than yes or no.
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, lastUserText, userTexts, usePty } from "./pty.ts";

const { serve, start } = usePty();

test('shiro "…" starts the loop with that prompt sent, then waits for the next', async () => {
  const s = await serve({ text: "Fixed the off-by-one in page.ts." });
  const pty = await start({ baseURL: s.url, args: ["fix the bug in page.ts"] });
  await pty.waitFor("Fixed the off-by-one in page.ts.");
  await pty.waitForPrompt(1);
  expect(s.requests).toHaveLength(1);
  expect(lastUserText(s.requests[0]!.body)).toBe("fix the bug in page.ts");
  expect(pty.screen()).toContain("› fix the bug in page.ts");
}, 20_000);

test("n at a question lets the user say what to do instead; the model gets it with the denial", async () => {
  const cwd = tempDir();
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "out.txt", content: "x" } }] }, { text: "Understood, I will use notes.md." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("write it down");
  await pty.waitFor("allow?");
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.line("write it to notes.md instead");
  await pty.waitFor("Understood, I will use notes.md.");
  // The transcript says who gets the words, as the plain denial's line does ("the model is told not to retry it").
  expect(pty.screen()).toContain("denied; the model is told: write it to notes.md instead");
  expect(existsSync(join(cwd, "out.txt"))).toBe(false);
  const output = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(output).toContain("The user declined this write_file call");
  expect(output).toContain("write it to notes.md instead");
}, 20_000);

test("backspace on 'what should shiro do instead?' takes a whole character: an emoji or an accented letter goes in one press", async () => {
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "out.txt", content: "x" } }] }, { text: "Understood." });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("write it down");
  await pty.waitFor("allow?");
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write("use caf\u0065\u0301 👍🏽");
  await pty.waitUntil("the words typed", () => pty.cursorLine().endsWith("use caf\u0065\u0301 👍🏽"));
  pty.write("\x7f"); // backspace: the thumb and its skin tone
  pty.write("\x7f"); // the space
  pty.write("\x7f"); // é, accent and all
  pty.write("e!");
  await pty.waitUntil("the line edited", () => pty.cursorLine().endsWith("› use cafe!"));
  pty.write(KEYS.enter);
  await pty.waitFor("Understood.");
  const output = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(output).toContain("use cafe!");
  expect(output).not.toContain("\ud83d");
}, 20_000);

test("n then an empty line just denies", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "keep.txt"), "kept\n");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "keep.txt", content: "gone" } }] }, { text: "Left it alone." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("overwrite keep.txt");
  await pty.waitFor("allow?");
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.line("");
  await pty.waitFor("Left it alone.");
  expect(toolOutputsIn(s.requests[1]!.body).join("\n")).not.toContain("what to do instead");
  expect(pty.screen()).toContain("denied; the model is told not to retry it");
}, 20_000);

test("!cmd runs the command in the workspace, shows its output, and sends it with the next prompt", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "notes.txt"), "alpha\n");
  const s = await serve({ text: "It printed alpha." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("!cat notes.txt");
  await pty.waitFor("the output goes with your next prompt");
  expect(pty.screen()).toContain("    alpha");
  expect(s.requests).toHaveLength(0); // nothing goes to the model until the next prompt
  pty.line("what did it print?");
  await pty.waitFor("It printed alpha.");
  const sent = lastUserText(s.requests[0]!.body);
  expect(sent).toContain("$ cat notes.txt\nExit code 0\nalpha");
  expect(sent.endsWith("what did it print?")).toBe(true);
}, 20_000);

test("!cmd output shows as the terminal would: a line that came in two pieces is one line, a blank line stays, a redrawn progress line is its last state", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("!printf 'start of a line '; sleep 0.3; printf 'end of it\\n\\nafter blank\\n'; for i in 1 2 3; do printf 'step %s\\r' $i; sleep 0.2; done; printf 'tail'");
  await pty.waitFor("the output goes with your next prompt");
  const rows = pty.screen().split("\n");
  const from = rows.indexOf("    start of a line end of it");
  expect(from).toBeGreaterThan(0);
  expect(rows.slice(from, from + 5)).toEqual(["    start of a line end of it", "", "    after blank", "    tail 3", "  ✓ exit 0 · the output goes with your next prompt"]);
}, 20_000);

test("a bare ! sends nothing and says what !cmd does; /help lists !cmd, @path and shift-tab", async () => {
  const s = await serve({ text: "hello back" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("!");
  await pty.waitFor("!cmd runs cmd in the workspace; its output goes with your next prompt");
  pty.line("/help");
  await pty.waitFor("!cmd       run cmd in the workspace (its output goes with your next prompt)");
  expect(pty.screen()).toContain("@path      attach a file or directory");
  expect(pty.screen()).toContain("shift-tab  switch the mode: ask → edits → auto → plan");
  expect(pty.screen()).toContain("up/down    the prompt history");
  expect(pty.screen()).toContain("tab        complete /commands, @paths");
  pty.line("hello");
  await pty.waitFor("hello back");
  expect(s.requests).toHaveLength(1);
  expect(userTexts(s.requests[0]!.body)).toEqual(["hello"]);
}, 20_000);

test("!cmd goes through the guard: a command that destroys work is refused and not run", async () => {
  const cwd = tempDir();
  const outside = tempDir();
  writeFileSync(join(outside, "keep.txt"), "kept\n");
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line(`!rm -rf ${outside}`);
  await pty.waitFor("safety guard refused");
  expect(existsSync(join(outside, "keep.txt"))).toBe(true);
  expect(s.requests).toHaveLength(0);
}, 20_000);

test("shiro -- \"undo the rename\" is a prompt, not the undo sub-command", async () => {
  const s = await serve({ text: "Renamed it back." });
  const pty = await start({ baseURL: s.url, args: ["--", "undo the rename"] });
  await pty.waitFor("Renamed it back.");
  expect(lastUserText(s.requests[0]!.body)).toBe("undo the rename");
}, 20_000);

test("shiro -r followed by words, not an id: the picker opens, then the words are sent in the chosen session", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir();
  const s = await serve({ text: "The first answer." }, { text: "Fixed, in the same session." });
  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("first question");
  await pty.waitFor("The first answer.");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  pty = await start({ baseURL: s.url, home, cwd, args: ["-r", "fix", "the", "bug"] });
  await pty.waitFor("Resume which session?");
  pty.write("\r");
  await pty.waitFor("Fixed, in the same session.");
  expect(lastUserText(s.requests[1]!.body)).toBe("fix the bug");
  // Resumed: the first question went with it.
  expect(JSON.stringify(s.requests[1]!.body)).toContain("first question");
}, 30_000);

test("esc on 'what should shiro do instead?' just denies, and what was typed waits in the input as a draft", async () => {
  const cwd = tempDir();
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "out.txt", content: "x" } }] },
    { text: "Not writing it." },
    { text: "Using notes.md now." },
  );
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("write it down");
  await pty.waitFor("allow?");
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write("put it in notes.md");
  await pty.waitFor("what should shiro do instead? (enter alone just denies) › put it in notes.md");
  pty.write(KEYS.esc);
  await pty.waitFor("Not writing it.");
  await pty.waitForPrompt(2);
  await pty.waitForInput("put it in notes.md");
  expect(existsSync(join(cwd, "out.txt"))).toBe(false);
  const output = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(output).toContain("The user declined this write_file call");
  expect(output).not.toContain("put it in notes.md"); // esc: the denial alone
  pty.write(" instead" + KEYS.enter); // the draft is an ordinary input: edited, then sent
  await pty.waitFor("Using notes.md now.");
  expect(lastUserText(s.requests[2]!.body)).toBe("put it in notes.md instead");
}, 20_000);
