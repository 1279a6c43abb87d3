// ctrl-r: searching this directory's prompt history from the input.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { historyPath } from "../../lib/prompt/history.ts";
import { tempDir } from "../support/cli.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();
const CTRL_R = "\x12";
const CTRL_G = "\x07";

/** A project whose history (oldest first) earlier sessions left. */
function withHistory(entries: string[]): { home: string; cwd: string } {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const file = historyPath(join(home, ".shiro-neko"), cwd);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ project: cwd, entries }));
  return { home, cwd };
}

test("ctrl-r finds an older prompt, ctrl-r again an older one, enter puts it in the input and a second enter sends it", async () => {
  const s = await serve({ text: "Running the login tests." });
  const pty = await start({ baseURL: s.url, ...withHistory(["fix the login test", "run the build", "explain the login flow", "add a changelog entry"]) });
  await pty.waitForPrompt(1);
  pty.write(CTRL_R);
  await pty.waitUntil("the search line", () => pty.cursorLine().startsWith("(reverse-i-search)''"));
  pty.write("login");
  await pty.waitUntil("the newest match", () => pty.cursorLine() === "(reverse-i-search)'login': explain the login flow");
  pty.write(CTRL_R);
  await pty.waitUntil("the older match", () => pty.cursorLine() === "(reverse-i-search)'login': fix the login test");
  pty.write(CTRL_R); // nothing older: says so, keeps the match
  await pty.waitUntil("the failing search", () => pty.cursorLine() === "(failing reverse-i-search)'login': fix the login test");
  pty.write(KEYS.enter);
  await pty.waitForInput("fix the login test");
  expect(s.requests).toHaveLength(0); // enter took the match; it did not send it
  pty.write(KEYS.enter);
  await pty.waitFor("Running the login tests.");
  expect(lastUserText(s.requests[0]!.body)).toBe("fix the login test");
}, 20_000);

test("esc and ctrl-g close the search and give back what was being typed", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, ...withHistory(["run the build", "deploy to staging"]) });
  await pty.waitForPrompt(1);
  pty.write("my draft");
  await pty.waitForInput("my draft");
  pty.write(CTRL_R);
  pty.write("build");
  await pty.waitUntil("the match", () => pty.cursorLine() === "(reverse-i-search)'build': run the build");
  pty.write(KEYS.esc);
  await pty.waitForInput("my draft");
  pty.write(CTRL_R);
  pty.write("staging");
  await pty.waitUntil("the match", () => pty.cursorLine() === "(reverse-i-search)'staging': deploy to staging");
  pty.write(CTRL_G);
  await pty.waitForInput("my draft");
  expect(s.requests).toHaveLength(0);
}, 20_000);
