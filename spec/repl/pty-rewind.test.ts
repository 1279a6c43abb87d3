import { expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, usePty, userTexts } from "./pty.ts";

const { serve, start } = usePty();
const CTRL_U = "\x15";
const write = (content: string) => ({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content } }] });
const sessionFiles = (home: string) => readdirSync(join(home, ".shiro-neko", "sessions")).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n));

test("esc twice at an empty prompt opens /rewind: the chosen prompt's files and conversation go back and the prompt is in the input", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(write("first\n"), { text: "one" }, write("second\n"), { text: "two" }, write("third\n"), { text: "three" }, { text: "took another way" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  for (const [i, prompt] of ["write first", "write second", "write third"].entries()) {
    await pty.waitForPrompt(i + 1);
    pty.line(prompt);
  }
  await pty.waitFor("three");
  await pty.waitForPrompt(4);
  pty.write(KEYS.esc);
  await Bun.sleep(150);
  pty.write(KEYS.esc);
  await pty.waitFor("Rewind to just before which prompt?");
  const list = pty.screen();
  // Newest first, each with when and how many files.
  const picker = list.slice(list.lastIndexOf("Rewind to just before which prompt?"));
  expect(picker.indexOf("write third")).toBeLessThan(picker.indexOf("write second"));
  expect(picker).toMatch(/2 +just now +1 file +write second/);
  pty.write(KEYS.down);
  await Bun.sleep(50);
  pty.write(KEYS.enter);
  await pty.waitFor("Back to just before prompt 2:");
  pty.write(KEYS.enter); // the conversation and the files
  await pty.waitFor('Rewound to before prompt 2, "write second" (2 turns taken back):');
  await pty.waitForInput("write second");
  expect(pty.screen()).toContain("  restored a.txt");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("first\n");

  pty.write(CTRL_U);
  pty.line("write it another way");
  await pty.waitFor("took another way");
  expect(userTexts(s.requests.at(-1)!.body)).toEqual(["write first", "write it another way"]);
}, 30_000);

test("/fork goes on in a copy and the original session file stays byte-identical; /rewind's fork choice leaves this session alone", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  const s = await serve(write("first\n"), { text: "one" }, { text: "answered from the copy" });
  const pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("write first");
  await pty.waitFor("one");
  await pty.waitForPrompt(2);
  pty.line("/fork");
  await pty.waitFor("Forked: this conversation goes on as session");
  // The original, as saved at the fork, is never written again.
  const original = sessionFiles(home).find((name) => !JSON.parse(readFileSync(join(home, ".shiro-neko", "sessions", name), "utf8")).forkedFrom);
  const before = readFileSync(join(home, ".shiro-neko", "sessions", original!));
  pty.line("say something in the fork");
  await pty.waitFor("answered from the copy");
  expect(userTexts(s.requests.at(-1)!.body)).toEqual(["write first", "say something in the fork"]);
  expect(sessionFiles(home).length).toBe(2);
  expect(readFileSync(join(home, ".shiro-neko", "sessions", original!)).equals(before)).toBe(true);

  pty.line("/rewind 1");
  await pty.waitFor("Back to just before prompt 1:");
  pty.write(KEYS.up); // the last choice: in a copy
  await Bun.sleep(50);
  pty.write(KEYS.enter);
  await pty.waitFor('Rewound to before prompt 1, "write first"');
  expect(pty.screen()).toContain("  removed a.txt");
  expect(sessionFiles(home).length).toBe(3);
  expect(readFileSync(join(home, ".shiro-neko", "sessions", original!)).equals(before)).toBe(true);
}, 30_000);

test("/rewind asks before overwriting a file changed outside shiro since: n leaves everything, y goes back", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(write("first\n"), { text: "one" }, write("second\n"), { text: "two" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("write first");
  await pty.waitForPrompt(2);
  pty.line("write second");
  await pty.waitFor("two");
  await pty.waitForPrompt(3);
  writeFileSync(join(cwd, "a.txt"), "my own edit\n");

  pty.line("/rewind 2");
  await pty.waitFor("Back to just before prompt 2:");
  pty.write(KEYS.enter);
  await pty.waitFor("a.txt changed outside shiro since");
  pty.write("n");
  await pty.waitFor("Nothing was rewound.");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("my own edit\n");

  pty.line("/rewind 2");
  await pty.waitFor("Back to just before prompt 2:");
  pty.write(KEYS.enter);
  await pty.waitFor("Overwrite it with the version from before the turn? y overwrite");
  pty.write("y");
  await pty.waitForInput("write second");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("first\n");
}, 30_000);
