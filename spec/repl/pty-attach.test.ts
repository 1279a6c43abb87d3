// `@path` in a prompt: the file (or a directory's listing) goes to the model with it.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

function project(): string {
  const cwd = tempDir();
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src", "a.ts"), "export const a = 1;\nexport const b = 2;\n");
  writeFileSync(join(cwd, "src", "b.ts"), "b\n");
  return cwd;
}

test("@file sends the file's numbered lines with the prompt, and the screen says it was attached", async () => {
  const cwd = project();
  const s = await serve({ text: "It exports a and b." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("what does @src/a.ts export?");
  await pty.waitFor("It exports a and b.");
  expect(pty.screen()).toContain("› what does @src/a.ts export?");
  expect(pty.screen()).toContain("attached src/a.ts (2 lines)");
  const sent = lastUserText(s.requests[0]!.body);
  expect(sent.startsWith("what does @src/a.ts export?\n\n")).toBe(true);
  expect(sent).toContain("     1\texport const a = 1;\n     2\texport const b = 2;");
}, 20_000);

test("@dir sends its listing", async () => {
  const cwd = project();
  const s = await serve({ text: "Two files." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("what is in @src");
  await pty.waitFor("Two files.");
  expect(pty.screen()).toContain("attached src/ (directory listing, 2 entries)");
  expect(lastUserText(s.requests[0]!.body)).toContain("src/\n  a.ts\n  b.ts");
}, 20_000);

test("@ a name that is no file is sent as typed, with a note; a path outside the workspace is refused", async () => {
  const cwd = project();
  const outside = tempDir();
  writeFileSync(join(outside, "secret-plans.txt"), "do not send\n");
  const s = await serve({ text: "Noted." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  const escape = `../${basename(outside)}/secret-plans.txt`;
  pty.line(`ping @alice about @${escape}`);
  await pty.waitFor("Noted.");
  expect(pty.screen()).toContain("@alice names no file here; sent as text");
  expect(pty.screen()).toContain(`not attached: path ${escape} is outside the workspace`);
  expect(lastUserText(s.requests[0]!.body)).toBe(`ping @alice about @${escape}`);
}, 20_000);

test("a big file is cut, and both the screen and the model are told how much was left out", async () => {
  const cwd = project();
  writeFileSync(join(cwd, "big.log.txt"), Array.from({ length: 3000 }, (_, i) => `entry ${i + 1}`).join("\n") + "\n");
  const s = await serve({ text: "Long log." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("summarise @big.log.txt");
  await pty.waitFor("Long log.");
  expect(pty.screen()).toContain("attached big.log.txt (lines 1-2,000 of 3,000; the rest left out)");
  const sent = lastUserText(s.requests[0]!.body);
  expect(sent).toContain("  2000\tentry 2000");
  expect(sent).not.toContain("entry 2001");
  expect(sent).toContain("Call read_file with offset 2001 to read more.");
}, 20_000);

test("a resumed session shows the prompt as typed with an attached line, and /undo gives back the prompt without the file", async () => {
  const cwd = project();
  const home = tempDir("shiro-home-");
  const s = await serve({ text: "First look." }, { text: "Second look." });
  let pty = await start({ baseURL: s.url, cwd, home });
  await pty.waitForPrompt(1);
  pty.line("review @src/a.ts");
  await pty.waitFor("First look.");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, cwd, home, args: ["-c"] });
  await pty.waitFor("── resumed session");
  expect(pty.screen()).toContain("› review @src/a.ts\n  attached src/a.ts\n");
  expect(pty.screen()).not.toContain("export const a = 1;");
  pty.line("/undo conversation");
  await pty.waitForInput("review @src/a.ts");
  pty.write(KEYS.enter); // sent again: attached again, from the file as it is now
  await pty.waitFor("Second look.");
  expect(lastUserText(s.requests[1]!.body)).toContain("     1\texport const a = 1;");
}, 20_000);

test("the session is named after the prompt typed, not the files @path attached to it", async () => {
  const cwd = project();
  const s = await serve({ text: "It exports a and b." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("what does @src/a.ts export?");
  await pty.waitFor("It exports a and b.");
  await pty.waitForPrompt(2);
  pty.line("/exit");
  await pty.exited;
  const { runShiro } = await import("../support/cli.ts");
  const listed = await runShiro(["sessions", "--json"], { cwd, home: pty.home });
  const [row] = listed.stdout.trim().split("\n").map((line) => JSON.parse(line) as { title: string });
  expect(row!.title).toBe("what does @src/a.ts export?");
}, 20_000);

test("a screenshot's path dropped in with escaped spaces goes as an image; the screen names it with its size", async () => {
  const cwd = project();
  const shots = tempDir();
  const { pngOf, imagesIn } = await import("../support/images.ts");
  writeFileSync(join(shots, "Screen Shot.png"), pngOf(16, 8));
  const s = await serve({ text: "A small gradient." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  // Dropping a file on a terminal pastes its path (bracketed paste), spaces escaped.
  pty.write(`what is this \x1b[200~${join(shots, "Screen Shot.png").replace(/ /g, "\\ ")}\x1b[201~\r`);
  await pty.waitFor("A small gradient.");
  expect(pty.screen()).toContain(`attached ${join(shots, "Screen Shot.png")} (image, 16×8)`);
  expect(imagesIn(s.requests[0]!.body).map((i) => i.mediaType)).toEqual(["image/png"]);
}, 20_000);

test("for a model that takes no images the prompt is not sent: one line says why, and the loop goes on", async () => {
  const cwd = project();
  const { pngOf } = await import("../support/images.ts");
  writeFileSync(join(cwd, "shot.png"), pngOf(8, 8));
  const s = await serve({ text: "Text only." });
  const pty = await start({ baseURL: s.url, cwd, args: ["-m", "gpt-3.5-turbo"] });
  await pty.waitForPrompt(1);
  pty.line("what is @shot.png?");
  await pty.waitFor("does not take images");
  expect(pty.screen()).toContain("gpt-3.5-turbo does not take images (built-in table)");
  expect(s.requests).toHaveLength(0);
  pty.line("then just say hi");
  await pty.waitFor("Text only.");
  expect(s.requests).toHaveLength(1);
}, 20_000);
