import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

function running(pattern: string): boolean {
  const ps = Bun.spawnSync(["pgrep", "-f", pattern]);
  return ps.stdout.toString().trim() !== "";
}

test("ctrl-c while bash runs kills the command within a second and the turn goes on", async () => {
  const marker = `sleep 30.${process.pid}`;
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: `echo started; ${marker}` } }] }, { text: "the command was stopped, moving on" });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("run the slow thing");
  await pty.waitFor("    started");
  expect(running(marker)).toBe(true);
  const pressed = Date.now();
  pty.write(KEYS.ctrlC);
  await pty.waitFor(`■ bash: interrupted · echo started; ${marker}`);
  expect(Date.now() - pressed).toBeLessThan(1_000);
  await pty.waitFor("the command was stopped, moving on");
  expect(running(marker)).toBe(false);
  const told = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(told).toContain("Interrupted by the user");
  expect(told).toContain("effects are unknown");
}, 20_000);

test("ctrl-c while two commands run says it stops both, and both are stopped", async () => {
  const first = `sleep 26.${process.pid}`;
  const second = `sleep 25.${process.pid}`;
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: first } }, { name: "bash", input: { command: second } }] },
    { text: "both stopped" },
  );
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("run two slow things");
  await pty.waitUntil("both commands to run", () => running(first) && running(second));
  pty.write(KEYS.ctrlC);
  await pty.waitFor("^C stopping 2 bash calls; the turn goes on");
  await pty.waitFor("both stopped");
  expect(pty.screen()).not.toContain("^C stopping bash;");
}, 20_000);

test("esc while bash runs ends the turn, and the command's line says it was interrupted, as ctrl-c's does", async () => {
  const marker = `sleep 28.${process.pid}`;
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: `echo started; ${marker}` } }] }, { text: "next answer" });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("run the slow thing");
  await pty.waitFor("    started");
  pty.write(KEYS.esc);
  await pty.waitForPrompt(2);
  const screen = pty.screen();
  expect(screen).toContain(`■ bash: interrupted · echo started; ${marker}`);
  expect(screen.indexOf(`■ bash: interrupted`)).toBeLessThan(screen.lastIndexOf("interrupted\n"));
  for (let waited = 0; running(marker) && waited < 2_000; waited += 50) await Bun.sleep(50);
  expect(running(marker)).toBe(false);
  pty.line("and now?");
  await pty.waitFor("next answer");
}, 20_000);

test("/last after esc cut a silent command short says so in words for the user, not the note meant for the model", async () => {
  const marker = `sleep 27.${process.pid}`;
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: marker } }] });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("run the silent slow thing");
  await pty.waitUntil("the command to run", () => running(marker));
  pty.write(KEYS.esc);
  await pty.waitForPrompt(2);
  pty.line("/last");
  await pty.waitFor(`bash ${marker} · interrupted`);
  await pty.waitFor("stopped before it finished, with no output");
  expect(pty.screen()).not.toContain("Check the current state");
}, 20_000);

test("ctrl-c at the prompt clears the line; twice on an empty line exits", async () => {
  const s = await serve({ text: "got it" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("half typed");
  await pty.waitForInput("half typed");
  pty.write(KEYS.ctrlC);
  await pty.waitForInput("");
  pty.line("fresh");
  await pty.waitFor("got it");
  expect(lastUserText(s.requests[0]!.body)).toBe("fresh");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlC);
  await pty.waitFor("press ctrl-c again to exit");
  pty.write(KEYS.ctrlC);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
}, 20_000);

test("enter on nothing but spaces sends nothing and clears them, so they do not end up in front of the next prompt", async () => {
  const s = await serve({ text: "got it" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("   ");
  pty.write("\r");
  await pty.waitForInput("");
  pty.line("hi there");
  await pty.waitFor("got it");
  expect(lastUserText(s.requests[0]!.body)).toBe("hi there");
  expect(s.requests).toHaveLength(1);
}, 20_000);

test("ctrl-d on an empty line exits with the exit message; on text it does not", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("abc");
  await pty.waitForInput("abc");
  pty.write(KEYS.ctrlD);
  pty.write(KEYS.ctrlC);
  await pty.waitForInput("");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
  expect(s.requests).toHaveLength(0);
}, 20_000);

test("ctrl-d during a turn first says what leaving would drop; a second one right after exits", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(200) + "done.", delayMs: 40 });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("slowly");
  pty.line("queued thought");
  await pty.waitFor("queued (1): queued thought");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running; 1 queued prompt would be dropped)");
  expect(pty.screen()).not.toContain("Good bye.");
  pty.write("x"); // another key in between: the next ctrl-d (on an empty line again) warns again
  await pty.waitForInput("x");
  pty.write("\x7f" + KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running; 1 queued prompt would be dropped)");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
  expect(s.requests).toHaveLength(1); // the queued prompt was dropped, not sent
}, 20_000);

test("ctrl-d's warning goes when it stops being true: when its two seconds are over, and when the turn ends", async () => {
  const s = await serve({ text: "slowly " + "and ".repeat(120) + "done.", delayMs: 40 });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitFor("slowly");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running)");
  await pty.waitUntil("the warning gone", () => !pty.screen().includes("ctrl-d again exits"), 4_000);
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running)");
  await pty.waitFor("done.");
  await pty.waitForPrompt(2);
  await pty.waitUntil("no warning under the idle prompt", () => !pty.screen().includes("ctrl-d again exits"));
}, 20_000);

test("ctrl-d at an approval question warns first too, under the question", async () => {
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made.txt" } }] });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("make it");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running)");
  expect(pty.cursorLine()).toStartWith("allow?");
  pty.write(KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
}, 20_000);

test("Tab completes slash commands and @paths", async () => {
  const s = await serve({ text: "read it" });
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "notes.txt"), "hello\n");
  writeFileSync(join(cwd, "other.md"), "");
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.write("/he" + KEYS.tab);
  await pty.waitForInput("/help");
  pty.write(KEYS.enter);
  await pty.waitFor("Keys");
  await pty.waitForPrompt(2);
  pty.write("summarise @no" + KEYS.tab);
  await pty.waitForInput("summarise @notes.txt");
  pty.write("please" + KEYS.enter);
  await pty.waitFor("read it");
  expect(lastUserText(s.requests[0]!.body)).toBe('summarise @notes.txt please\n\n<attached path="notes.txt" lines="1">\n     1\thello\n</attached>');
  await pty.waitForPrompt(3);
  pty.write("email me@no" + KEYS.tab); // not at the start of a word: nothing happens
  await pty.waitForInput("email me@no");
}, 20_000);

test("SIGTERM during a command leaves with 130 and kills the command", async () => {
  const marker = `sleep 29.${process.pid}`;
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: `echo started; ${marker}` } }] }, { text: "unused" });
  serve.allowLeftovers("SIGTERM ends shiro before the command's result goes back to the model");
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("run it");
  await pty.waitFor("    started");
  pty.signal("SIGTERM");
  expect(await pty.exited).toBe(130);
  for (let waited = 0; running(marker) && waited < 2_000; waited += 50) await Bun.sleep(50); // the group gets SIGTERM, then SIGKILL
  expect(running(marker)).toBe(false);
}, 20_000);

test("typing / opens the command list, one line each, filtered as you type; tab completes; enter runs the chosen one", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, cols: 60 });
  await pty.waitForPrompt(1);
  pty.write("/");
  await pty.waitFor(/› \/help +list commands and keys/);
  expect(pty.screen()).toMatch(/\/todos +show the task list/);
  pty.write("co");
  await pty.waitUntil("the list narrowed to /co…", () => !pty.screen().includes("/todos") && pty.screen().includes("/cost"));
  const rows = pty.screen().split("\n").filter((row) => /^ +(› )?\/\w/.test(row));
  expect(rows.map((row) => row.trim().replace(/^› /, "").split(/\s+/)[0])).toEqual(["/compact", "/cost"]);
  for (const row of rows) expect(row.length).toBeLessThanOrEqual(59); // one line each, clipped to the width
  pty.write(KEYS.down + KEYS.tab);
  await pty.waitForInput("/cost");
  pty.write(KEYS.enter);
  await pty.waitFor("spent:");
  await pty.waitForPrompt(2);
  // A name typed whole is the one run, not a longer one that starts the same.
  pty.write("/mode" + KEYS.enter);
  await pty.waitFor("mode: ask (ask, edits, auto, plan;");
}, 20_000);
