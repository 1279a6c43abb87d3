// Resume shows where you were: the replay before the prompt, and the picker of this directory's sessions.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/cli.ts";
import { sessionPath, sessionsDir } from "../../lib/sessions/paths.ts";
import { serializeSession } from "../../lib/sessions/serialize.ts";
import { makeRecord } from "../sessions/support/fixtures.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

/** Runs one shiro that asks `prompt` and leaves once the answer `until` is on screen. */
async function session(baseURL: string, home: string, cwd: string, prompt: string, until: string): Promise<void> {
  const pty = await start({ baseURL, home, cwd });
  await pty.waitForPrompt(1);
  pty.line(prompt);
  await pty.waitFor(until);
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;
}

test("-c replays the conversation condensed before the prompt; -r alone opens a picker, newest first", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const elsewhere = tempDir("shiro-work-");
  writeFileSync(join(cwd, "notes.txt"), "alpha\n");
  const s = await serve(
    { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }, { name: "read_file", input: { path: "gone.txt" } }] },
    { text: "The **first** answer." },
    { text: "the second answer" },
    { text: "from elsewhere" },
    { text: "continued the first" },
  );
  await session(s.url, home, cwd, "first question", "The first answer.");
  await session(s.url, home, cwd, "second question", "the second answer");
  await session(s.url, home, elsewhere, "other directory", "from elsewhere");

  let pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toMatch(/\n› second question\nthe second answer\n\n── resumed session [0-9a-f-]{8,} · 2 messages ──\n/);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-r"] });
  await pty.waitFor("Resume which session?");
  const picker = pty.screen().split("\n");
  const first = picker.findIndex((row) => row.startsWith("› "));
  expect(picker[first]).toMatch(/^› [0-9a-f-]{8,} +just now +second question +2 msgs$/);
  expect(picker[first + 1]).toMatch(/^ {2}[0-9a-f-]{8,} +just now +first question +4 msgs$/);
  expect(pty.screen()).not.toContain("other directory");
  pty.write(KEYS.down);
  await pty.waitFor(/^› [0-9a-f-]{8,} +just now +first question/m);
  pty.write(KEYS.enter);
  await pty.waitForPrompt(1);
  const replay = pty.screen();
  expect(replay).toContain("› first question\n  ✓ read_file: 1 line · notes.txt\n  ✗ read_file: no such file gone.txt\n");
  expect(replay).toContain("\n\nThe first answer.\n\n── resumed session");
  expect(pty.raw()).toContain("\x1b[1mfirst\x1b[22m"); // the answer rendered again
  pty.line("go on");
  await pty.waitFor("continued the first");
  expect(JSON.stringify(s.requests.at(-1)!.body)).toContain("first question");

  // /resume alone opens the same picker, without the session open now; esc keeps that one.
  await pty.waitForPrompt(2);
  pty.line("/resume");
  await pty.waitFor("Resume which session?");
  await pty.waitFor("esc keeps the current session");
  const offered = pty.screen().split("\n").filter((row) => / msgs?$/.test(row));
  expect(offered).toHaveLength(1);
  expect(offered[0]).toContain("second question");
  pty.write(KEYS.esc);
  await pty.waitFor("Kept the current session.");
  pty.line("/sessions");
  await pty.waitFor("Resume one with /resume <id>, or /resume alone to pick.");
  expect(pty.screen()).not.toContain("other directory");
  // The session open now is marked at the end of its row; the other is not.
  const listed = pty.screen().split("\n").filter((row) => / msgs?( {2}\(this session\))?$/.test(row));
  expect(listed).toHaveLength(2);
  // The first session, resumed and continued here, is the one open now.
  expect(listed.find((row) => row.includes("first question"))).toMatch(/^[0-9a-f-]{8,} +just now +first question +\d+ msgs {2}\(this session\)$/);
  expect(listed.find((row) => row.includes("second question"))).toMatch(/^[0-9a-f-]{8,} +just now +second question +2 msgs$/);
  // From the shell there is no current session: the same listing, unmarked.
  const shell = await runShiro(["sessions"], { cwd, home });
  expect(shell.code).toBe(0);
  expect(shell.stdout).toContain("second question");
  expect(shell.stdout).not.toContain("this session");
  pty.line("/sessions --all");
  await pty.waitFor("other directory");
}, 40_000);

test("the replay's result lines are the lines the live screen showed", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\nthree\n");
  const s = await serve(
    {
      toolCalls: [
        { name: "read_file", input: { path: "a.txt" } },
        { name: "bash", input: { command: "ls a.txt" } },
        { name: "bash", input: { command: "ls missing-dir" } },
        { name: "grep", input: { pattern: "two" } },
        { name: "glob", input: { pattern: "*.txt" } },
        { name: "list_dir", input: { path: "." } },
      ],
    },
    { text: "Looked." },
    { text: "Nothing new." },
  );
  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("look around");
  await pty.waitFor("Looked.");
  await pty.waitForPrompt(2);
  const results = (screen: string) => screen.split("\n").filter((row) => /^ {2}[✓✗] /.test(row));
  const live = results(pty.screen()); // in the order the calls ended
  // A search names its pattern as list_dir names its path.
  const expected = ["  ✓ read_file: 3 lines · a.txt", "  ✓ bash: exit 0 · ls a.txt", "  ✗ bash: exit 2 · ls missing-dir", "  ✓ grep: 1 match in 1 file · two", "  ✓ glob: 1 file · *.txt", "  ✓ list_dir: 1 entry · ."];
  expect(live.toSorted()).toEqual(expected.toSorted());
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  // The same lines.
  expect(results(pty.screen())).toEqual(expected);
  pty.line("anything else?");
  await pty.waitFor("Nothing new.");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  // And `shiro sessions show` has them too.
  const [id] = readdirSync(join(home, ".shiro-neko", "sessions")).filter((n) => n.endsWith(".json"));
  const shown = (await runShiro(["sessions", "show", id!.replace(/\.json$/, "")], { home, cwd })).stdout;
  for (const line of expected) expect(shown).toContain(`${line}\n`);
}, 30_000);

test("a session saved before results kept their summaries replays glob and grep in files and matches, as they showed live", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
  writeFileSync(join(cwd, "b.txt"), "two too\n");
  writeFileSync(join(cwd, "c.txt"), "three\n");
  const s = await serve({ toolCalls: [{ name: "glob", input: { pattern: "*.txt" } }, { name: "grep", input: { pattern: "two" } }] }, { text: "Looked." });
  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("look around");
  await pty.waitFor("Looked.");
  await pty.waitForPrompt(2);
  const expected = ["  ✓ glob: 3 files · *.txt", "  ✓ grep: 2 matches in 2 files · two"];
  for (const line of expected) expect(pty.screen()).toContain(`${line}\n`);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  // The session as an older shiro saved it: no summary kept with the results.
  const dir = join(home, ".shiro-neko", "sessions");
  const [file] = readdirSync(dir).filter((n) => n.endsWith(".json"));
  const record = JSON.parse(readFileSync(join(dir, file!), "utf8"));
  let stripped = 0;
  for (const message of record.messages)
    if (message.role === "tool") for (const part of message.content) if (part.providerOptions?.shiro?.summary) (delete part.providerOptions, stripped++);
  expect(stripped).toBe(2);
  writeFileSync(join(dir, file!), serializeSession(record));

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  const replay = pty.screen();
  for (const line of expected) expect(replay).toContain(`${line}\n`);
  expect(replay).not.toMatch(/glob: .*lines/);
  pty.write(KEYS.ctrlD);
  await pty.exited;
}, 30_000);

test("a call whose live line had no words after the tool's name is replayed with none, not with its text's first line", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  // As the turn saves it (lib/agent/result-notes.ts): the empty summary the live line showed, kept with the result.
  const record = makeRecord({
    cwd,
    messages: [
      { role: "user", content: "probe it" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "probe", input: { target: "needle" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "probe", output: { type: "text", value: "first line the model read\nsecond" }, providerOptions: { shiro: { summary: "" } } }] },
      { role: "assistant", content: [{ type: "text", text: "Probed." }] },
    ],
  });
  const shiroHome = join(home, ".shiro-neko");
  mkdirSync(sessionsDir(shiroHome), { recursive: true });
  writeFileSync(sessionPath(shiroHome, record.id), serializeSession(record));
  const s = await serve();
  const pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  const replay = pty.screen();
  expect(replay).toContain("› probe it\n  ✓ probe · needle\n");
  expect(replay).not.toContain("first line the model read");
  const shown = (await runShiro(["sessions", "show", record.id], { home, cwd })).stdout;
  expect(shown).toContain("→ probe needle\n  ✓ probe\n\n"); // show names only the subjects of tools it knows
  pty.write(KEYS.ctrlD);
  await pty.exited;
}, 30_000);

test("-r alone with nothing saved here starts a new session and says so", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, args: ["-r"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("No saved sessions in this directory yet, so this is a new one.");
}, 20_000);

test("a denied call is replayed with the short line the user saw, not the reason the model was given", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, ".env"), "TOKEN=abc\n");
  const s = await serve({ toolCalls: [{ name: "read_file", input: { path: ".env" } }] }, { text: "I may not read it." });
  const denied = "  ⊘ read_file .env: not run (a secrets file, never read or written)";
  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("read the env file");
  await pty.waitFor("I may not read it.");
  await pty.waitForPrompt(2);
  expect(pty.screen()).toContain(`› read the env file\n→ read_file .env\n${denied}\n`);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  const replay = pty.screen();
  expect(replay).toContain(`› read the env file\n${denied}\n`);
  expect(replay).not.toContain("Not run:");
  expect(replay).not.toContain("looks like a secrets file");
  pty.write(KEYS.ctrlD);
  await pty.exited;
}, 30_000);

test("shiro killed while a command ran: -c replays the call as interrupted", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made.txt && sleep 30" } }] }, { text: "Checking." });
  let pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("make the file");
  const deadline = Date.now() + 10_000;
  while (!existsSync(join(cwd, "made.txt")) && Date.now() < deadline) await Bun.sleep(20);
  await Bun.sleep(200); // the step so far is on record
  pty.kill();
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("› make the file\n  ■ bash: interrupted · touch made.txt && sleep 30\n");
  pty.line("did it work?");
  await pty.waitFor("Checking.");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;
}, 30_000);

test("-c replays turns that got no answer as such, with the reason the session kept; an answered second try drops the mark", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const down = { status: 500, body: { error: { message: "The server had an error.", type: "server_error" } } } as const;
  const s = await serve(down, down, down, down, { status: 401, body: { error: { message: "Incorrect API key provided.", type: "invalid_request_error" } } }, { status: 400, body: { error: { message: "Invalid model id", type: "invalid_request_error" } } }, { text: "answered at last" });
  expect((await runShiro(["-p", "hello"], { baseURL: s.url, cwd, home })).code).toBe(1);
  expect((await runShiro(["-c", "-p", "again"], { baseURL: s.url, cwd, home })).code).toBe(1);
  expect((await runShiro(["-c", "-p", "third"], { baseURL: s.url, cwd, home })).code).toBe(1);
  expect((await runShiro(["-c", "-p", "third"], { baseURL: s.url, cwd, home })).code).toBe(0);

  const pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  const screen = pty.screen();
  expect(screen).toMatch(/› hello\n {2}✗ no answer: provider returned 500\b.*\n/);
  expect(screen).toMatch(/› again\n {2}✗ no answer: .*401\b.*\n/);
  // The prompt sent again got its answer: no mark left on it.
  expect(screen).toContain("› third\nanswered at last\n");
  pty.write(KEYS.ctrlD);
  await pty.exited;
  // The model read the prompts as they were, without the marks.
  const sent = JSON.stringify(s.requests.at(-1)!.body);
  expect(sent).toContain("again");
  expect(sent).not.toContain("Incorrect API key");
}, 30_000);

test("the picker says which damaged session file it left out, at start (-r) and in /resume", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const s = await serve({ text: "kept answer" }, { text: "damaged answer" });
  await session(s.url, home, cwd, "kept question", "kept answer");
  await session(s.url, home, cwd, "damaged question", "damaged answer");
  const dir = join(home, ".shiro-neko", "sessions");
  const files = readdirSync(dir).filter((name) => name.endsWith(".json")).sort();
  const damaged = join(dir, files.at(-1)!); // ids sort by age: the newer one
  writeFileSync(damaged, '{"id":"cut short');

  let pty = await start({ baseURL: s.url, home, cwd, args: ["-r"] });
  await pty.waitFor("Resume which session?");
  // The warning wraps at the screen's width: compared without its spaces and line breaks.
  const flat = () => pty.screen().replace(/\s+/g, "");
  const warning = `warning:skipped${damaged}:notvalidJSON`;
  expect(flat()).toContain(warning);
  expect(pty.screen()).toContain("kept question");
  expect(pty.screen()).not.toContain("damaged question");
  pty.write(KEYS.esc);
  await pty.waitForPrompt(1);

  pty.line("/resume");
  await pty.waitFor("esc keeps the current session");
  expect(flat().split(warning).length - 1).toBe(2); // at start, and again now
  pty.write(KEYS.esc);
  await pty.waitFor("Kept the current session.");
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // -c continues the older session, and says which file it passed over.
  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitFor("── resumed session");
  expect(flat()).toContain(warning.replace("warning:", ""));
  expect(pty.screen()).toContain("› kept question");
  pty.write(KEYS.ctrlD);
  await pty.exited;
  expect(readFileSync(damaged, "utf8")).toBe('{"id":"cut short'); // left as it was
}, 30_000);
