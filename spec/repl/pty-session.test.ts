import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { tempDir } from "../support/cli.ts";
import { taskListIn } from "../support/requests.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

test("leaving at once writes no session and says there is nothing to resume", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
  expect(pty.screen()).toContain("Good bye.\nNo messages were saved, so there is nothing to resume.");
  const sessions = join(pty.home, ".shiro-neko", "sessions");
  expect(existsSync(sessions) ? readdirSync(sessions).filter((n) => n.endsWith(".json")) : []).toEqual([]);
}, 20_000);

test("a session is saved, /save writes now, the exit message names it, and -c picks it up with its task list", async () => {
  const home = tempDir();
  const cwd = tempDir();
  const s = await serve(
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "look around", status: "in_progress" }] } }] },
    { text: "first answer" },
    { text: "second answer" },
  );
  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("why does the pagination test fail?");
  await pty.waitFor("first answer");
  await pty.waitForPrompt(2);
  pty.line("/save");
  await pty.waitFor(/Saved \d+ messages to session/);
  const files = readdirSync(join(home, ".shiro-neko", "sessions")).filter((n) => n.endsWith(".json"));
  expect(files).toHaveLength(1);
  expect(readFileSync(join(home, ".shiro-neko", "sessions", files[0]!), "utf8")).toContain("first answer");
  await pty.waitForPrompt(1); // the command has ended: while one runs, a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
  const screen = pty.screen();
  expect(screen).toMatch(/Good bye\.\nSaved 4 messages: "why does the pagination test fail\?"\n\nResume it with:\n  shiro -c {20}newest session in this directory\n  shiro -r [0-9a-f-]{8,} +this session by id/);

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c"] });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain(`session ${files[0]!.slice(0, 8)}`);
  pty.line("/todos");
  await pty.waitFor("[~] look around");
  pty.line("and now?");
  await pty.waitFor("second answer");
  expect(taskListIn(s.requests[2]!.body)).toContain("[~] look around");
  expect(JSON.stringify(s.requests[2]!.body)).toContain("why does the pagination test fail?");
}, 30_000);

test("a resumed session shows its own totals, cached input priced at the cache rate, and the spend ceiling refuses the next turn", async () => {
  const home = tempDir();
  const cwd = tempDir();
  const s = await serve({ text: "expensive answer", usage: { input: 200_000, output: 2_000, cached: 160_000 } });
  let pty = await start({ baseURL: s.url, home, cwd, args: ["-m", "gpt-5-mini"] });
  await pty.waitForPrompt(1);
  pty.line("first question");
  await pty.waitFor("expensive answer");
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c", "-m", "gpt-5-mini", "--max-spend", "0.01"] });
  await pty.waitForPrompt(1);
  // The status line's ctx is the next request (a few thousand tokens), not the 202k billed; what is
  // spent is the session's: gpt-5-mini, 40,000 input tokens at $0.25/M, 160,000 cached at $0.025/M, 2,000 out at $2/M.
  expect(pty.screen()).toMatch(/ctx ~\d+(\.\d)?k\/1M · spent \$0\.0180/);
  pty.line("/cost");
  await pty.waitFor("spent: 200,000 tokens in (160,000 cached) · 2,000 out · 202,000 total, this session");
  pty.line("second question");
  await pty.waitFor("at or past its $0.0100 limit");
  expect(s.requests).toHaveLength(1);
}, 30_000);

test("/resume of the session in use, queued right after a turn, keeps that turn's answer", async () => {
  const home = tempDir();
  const cwd = tempDir();
  const s = await serve({ text: "answer one" }, { text: "answer two", delayMs: 30 }, { text: "answer three" });
  const pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("q1");
  await pty.waitFor("answer one");
  await pty.waitForPrompt(2);
  pty.line("/save");
  await pty.waitFor(/Saved \d+ messages/);
  const dir = join(home, ".shiro-neko", "sessions");
  const id = readdirSync(dir).find((n) => n.endsWith(".json"))!.replace(/\.json$/, "");
  pty.line("q2");
  pty.line(`/resume ${id}`); // queued while q2 runs
  await pty.waitFor("resumed session");
  pty.line("q3");
  await pty.waitFor("answer three");
  await pty.waitForPrompt(2); // prompts count from the replay /resume printed: q3 is the first
  expect(pty.screen()).toContain("── resumed session");
  pty.write(KEYS.ctrlD);
  await pty.exited;
  const saved = readFileSync(join(dir, `${id}.json`), "utf8");
  for (const text of ["q1", "answer one", "q2", "answer two", "q3", "answer three"]) expect(saved).toContain(text);
}, 30_000);

test("after /clear with nothing new said, the exit message still points at the saved conversation", async () => {
  const s = await serve({ text: "kept answer" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("a question worth keeping");
  await pty.waitFor("kept answer");
  await pty.waitForPrompt(2);
  pty.line("/clear");
  await pty.waitFor("Started a new conversation");
  await pty.waitForPrompt(1); // the command has ended: while one runs, a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
  expect(pty.screen()).toContain('Saved 2 messages: "a question worth keeping"');
}, 20_000);

test("a turn stopped at the step cap says the way on that fits the loop: ask shiro to continue", async () => {
  const s = await serve({ toolCalls: [{ name: "list_dir", input: { path: "." } }] });
  const pty = await start({ baseURL: s.url, args: ["--max-steps", "1"] });
  await pty.waitForPrompt(1);
  pty.line("look around");
  await pty.waitFor("(the step cap)");
  await pty.waitForPrompt(2);
  expect(pty.screen().replace(/\n(?!\n)/g, " ")).toContain("stopped after 1 step (the step cap). Raise it with --max-steps, or ask shiro to continue.");
  expect(pty.screen()).not.toContain("shiro -c -p");
  pty.write(KEYS.ctrlD);
  await pty.exited;
});
