import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SLASH_COMMANDS } from "../../lib/prompt/slash-commands.ts";
import type { Reply } from "../support/fake-openai.ts";
import { tempDir } from "../support/cli.ts";
import { KEYS, NO_NOTES_SUGGESTED, usePty } from "./pty.ts";

const { serve, start } = usePty();

test("the header names version, model, directory, session and approvals", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, args: ["-m", "test-model"] });
  await pty.waitForPrompt(1);
  const [first, second, third, fourth] = pty.screen().split("\n");
  expect(first).toMatch(/^shiro \d+\.\d+\.\d+ · test-model · default agent, thinking medium · window 1,000,000 tokens \(SHIRO_CONTEXT_WINDOW\) · .+shiro-work-\w+ · new session$/);
  expect(second).toBe("edits and commands ask (read-only commands run): y once · a always · n deny");
  expect(third).toBe('sandbox off (--no-sandbox, SHIRO_SANDBOX=off or config "sandbox": "off"): commands run directly on this machine'); // spec/support/host-tools.ts
  expect(fourth).toContain("/help");
  expect(pty.screen()).toMatch(/test-model · ctx ~[\d.]+k\/1M/); // the instructions and tools, before any prompt
}, 20_000);

test("the header names the instruction files the model reads: AGENTS.md at the root, CLAUDE.md of the directory shiro runs in", async () => {
  const s = await serve();
  const work = tempDir();
  const { mkdirSync } = await import("node:fs");
  mkdirSync(join(work, ".git"));
  mkdirSync(join(work, "web"));
  writeFileSync(join(work, "AGENTS.md"), "Use bun.\n");
  writeFileSync(join(work, "web", "CLAUDE.md"), "Tabs.\n");
  const pty = await start({ baseURL: s.url, args: ["-m", "test-model"], cwd: join(work, "web") });
  await pty.waitForPrompt(1);
  expect(pty.screen().split("\n")[1]).toBe("instructions from AGENTS.md · web/CLAUDE.md");
}, 20_000);

test("at 100 columns the header's first line breaks between its parts, not inside one", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, args: ["-m", "test-model"], cols: 100 });
  await pty.waitForPrompt(1);
  const [first, second] = pty.screen().split("\n");
  expect(first).toMatch(/^shiro \d+\.\d+\.\d+ · test-model · default agent, thinking medium$/);
  expect(second).toMatch(/^window 1,000,000 tokens \(SHIRO_CONTEXT_WINDOW\) · .+shiro-work-\w+ · new session$/);
}, 20_000);

test("at 40 columns the status line keeps whole parts, the context and a non-default mode before the model and the spending", async () => {
  const s = await serve({ text: "hello" });
  const pty = await start({ baseURL: s.url, args: ["-m", "a-rather-long-model-name", "--mode", "edits"], cols: 40 });
  await pty.waitForPrompt(1);
  pty.line("hi");
  await pty.waitFor("hello");
  await pty.waitForPrompt(2);
  const status = pty.screen().split("\n").at(-1)!;
  expect(status).toMatch(/^ctx ~[\d.]+k\/1M · mode edits$/);
  pty.resize(100);
  await pty.waitUntil("the wide status line", () => /^a-rather-long-model-name · ctx ~[\d.]+k\/1M · spent: unpriced · mode edits$/.test(pty.screen().split("\n").at(-1)!));
}, 20_000);

test("the header shows the window and its source; a window too small to work in is said once at start", async () => {
  const s = await serve.with({ vendor: "ollama", models: { "qwen2.5-7b": { contextWindow: 4096, maxContext: 32768 } } })();
  const pty = await start({ baseURL: s.url, args: ["--provider", "ollama", "-m", "qwen2.5-7b"], env: { SHIRO_CONTEXT_WINDOW: undefined, SHIRO_CLIENT: undefined } });
  await pty.waitForPrompt(1);
  const screen = pty.screen();
  expect(screen.split("\n")[0]).toContain(" · qwen2.5-7b · default agent, thinking medium · window 4,096 tokens (ollama /api/show) · ");
  expect(screen.split("qwen2.5-7b has a context of 4,096 tokens (ollama /api/show), too small to work in")).toHaveLength(2);
  expect(screen).toContain("OLLAMA_CONTEXT_LENGTH=32768");
}, 20_000);

test("/help at 100 columns wraps a description under the description column; at 40 each description goes under its command", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, cols: 100 });
  await pty.waitForPrompt(1);
  pty.line("/help");
  await pty.waitFor("Keys");
  await pty.waitForPrompt(2); // the listing is written whole
  const wide = pty.screen();
  // The column starts past the longest command ("/mode [ask|edits|auto|plan]" and two spaces).
  const column = "  /mode [ask|edits|auto|plan]  ".length;
  expect(wide).toContain("  /help" + " ".repeat(column - "  /help".length) + "list commands and keys\n");
  expect(wide).toMatch(new RegExp(`\\n  /init \\[focus\\] {${column - "  /init [focus]".length}}have the model write \\(or improve\\)[^\\n]*\\n {${column}}\\S`));
  // The keys the same way, in a column of their own.
  expect(wide).toMatch(/\n  ctrl-r {5}search the prompt history [^\n]*\n {13}back\)\n/);
  pty.resize(40);
  pty.line("/clear");
  await pty.waitFor("Started a new conversation");
  pty.line("/help");
  // Written whole once the keys' last row is on screen (a redraw after the resize can show a prompt twice).
  await pty.waitUntil("the narrow listing", () => {
    const screen = pty.screen();
    return screen.lastIndexOf("Commands") > screen.lastIndexOf("Started a new conversation") && /Keys[\s\S]*@path[\s\S]*directory/.test(screen.slice(screen.lastIndexOf("Commands")));
  });
  const narrow = pty.screen().slice(pty.screen().lastIndexOf("Commands"));
  expect(narrow).toContain("\n  /help\n      list commands and keys\n  /todos\n      show the task list\n");
  expect(narrow).toMatch(/\n  \/undo \[files\|conversation\]\n {6}take back the last turn: its file\n {6}changes and the conversation\n/);
  for (const row of narrow.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
}, 20_000);

test("/help lists every command; unknown commands get the closest name; each command answers", async () => {
  // A server that serves the model list (empty here): /model asks for it before switching.
  const s = await serve.with({ vendor: "openai" })();
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("/help");
  await pty.waitFor("Keys");
  const help = pty.screen();
  for (const command of SLASH_COMMANDS) expect(help).toContain(`  /${command.name}`);
  pty.line("/hlep");
  await pty.waitFor("unknown command /hlep. Did you mean /help?");
  const answers: [string, string][] = [
    ["/notes", "Project memory is empty"],
    ["/memory", "60"],
    ["/compact", "Nothing to compact yet."],
    ["/sessions", "No saved sessions in this directory yet."],
    ["/sessions --all", "No saved sessions yet."],
    ["/last", "No tool result in this session yet."],
    ["/save", "Nothing to save yet"],
    ["/todos", "The task list is empty."],
    ["/resume 0193", 'No session matching "0193". Run: /sessions --all'],
  ];
  for (const [command, answer] of answers) {
    pty.line(command);
    await pty.waitFor(answer);
  }
  pty.line("/cost extra words");
  await pty.waitFor('usage: /cost, with nothing after it (not "extra words"); it was not run.');
  expect(pty.screen()).not.toContain("spent: 0 tokens in");
  pty.line("/exit now");
  await pty.waitFor('usage: /exit, with nothing after it (not "now"); it was not run.');
  pty.line("/cost");
  await pty.waitFor("spent: 0 tokens in · 0 out · 0 total, this session");
  pty.line("/model other-model");
  await pty.waitFor("model: other-model from the next prompt on; window 1,000,000 tokens (SHIRO_CONTEXT_WINDOW).");
  await pty.waitFor("other-model · ctx ~");
  pty.line("/agent review");
  await pty.waitFor("agent: review (thinking high, up to 50 steps) from the next prompt on.");
  pty.line("/think low");
  await pty.waitFor("thinking: low from the next prompt on.");
  pty.line("/agent nope");
  await pty.waitFor('unknown agent "nope". Use one of: default, quick, deep, plan, review.');
  pty.line("/reasoning");
  await pty.waitFor("No reasoning in this session yet.");
  expect(s.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]); // /model's list; nothing sent to the model
}, 20_000);

test("reasoning collapses to one line, tools show one line each, errors are red", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
  const s = await serve(
    { reasoning: "thinking about which file to read first, carefully", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
    { toolCalls: [{ name: "read_file", input: { path: "missing.txt" } }] },
    { text: "notes.txt has two lines." },
    // The second turn's request refers to stored items, so its 400 is answered by one re-send inline (turn.ts); that fails too.
    { status: 400, body: { error: { message: "bad request from the fake", type: "invalid_request_error" } } },
    { status: 400, body: { error: { message: "bad request from the fake", type: "invalid_request_error" } } },
  );
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("look");
  await pty.waitFor("notes.txt has two lines.");
  const screen = pty.screen();
  expect(screen).toMatch(/✻ thought for \d+s · ~\d+ tokens · \/reasoning shows it\n→ read_file notes.txt\n  ✓ read_file: 2 lines · notes.txt\n→ read_file missing.txt\n  ✗ read_file: /);
  expect(screen).not.toContain("carefully"); // the reasoning itself is not printed
  await pty.waitForPrompt(2);
  pty.line("/reasoning");
  await pty.waitFor("thinking about which file to read first, carefully"); // but can be opened
  expect(pty.raw()).toContain("\x1b[31m  ✗ read_file"); // red
  await pty.waitForPrompt(3);
  pty.line("again");
  await pty.waitFor("error:");
  expect(pty.raw()).toMatch(/\x1b\[31merror: /);
  // Nothing came back: the screen says how to send the prompt again.
  await pty.waitFor("↑ and enter send the prompt again");
}, 20_000);

test("NO_COLOR: the same session writes no colour codes, and keeps the redrawn input", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\n");
  const s = await serve(
    { reasoning: "hmm", text: "Editing.", toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "one", newString: "two" } }] },
    { toolCalls: [{ name: "bash", input: { command: "printf 'out\\n'" } }] },
    { text: "slowly " + "and ".repeat(10) + "done.", delayMs: 20 },
    NO_NOTES_SUGGESTED, // the edit makes ctrl-d ask for suggested notes
  );
  const pty = await start({ baseURL: s.url, cwd, env: { NO_COLOR: "1" } });
  await pty.waitForPrompt(1);
  pty.line("/help");
  await pty.waitFor("Keys");
  pty.line("edit it");
  await pty.waitFor("edit_file wants to edit: a.txt  +1 -1");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitUntil("the bash question", () => pty!.cursorLine().startsWith("allow?") && pty!.screen().includes("bash wants to run"));
  pty.write("a");
  await pty.waitUntil("how long it lasts", () => pty!.cursorLine().startsWith("keep it?"));
  pty.write("s");
  await pty.waitFor("slowly");
  pty.line("typed during the turn");
  await pty.waitFor("queued (1): typed during the turn");
  pty.write(KEYS.esc);
  await pty.waitForPrompt(2);
  pty.write(KEYS.up);
  await pty.waitForInput("typed during the turn");
  pty.write(KEYS.ctrlC + KEYS.ctrlD);
  await pty.waitFor("Good bye.");
  expect(await pty.exited).toBe(0);
  expect(pty.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
  expect(pty.screen()).toContain("    out");
}, 20_000);

test("/clear starts a new empty conversation and clears the task list", async () => {
  const s = await serve(
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "step one", status: "in_progress" }] } }] },
    { text: "planned" },
    { text: "fresh start" },
  );
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("plan");
  await pty.waitFor("planned");
  await pty.waitForPrompt(2);
  pty.line("/clear");
  await pty.waitFor("Started a new conversation");
  pty.line("/todos");
  await pty.waitFor("The task list is empty.");
  pty.line("hello again");
  await pty.waitFor("fresh start");
  const body = s.requests[2]!.body;
  const items: any[] = Array.isArray(body.input) ? body.input : body.messages;
  expect(items.filter((item) => item.role === "user" || item.role === "assistant")).toHaveLength(1);
  expect(JSON.stringify(body)).not.toContain("step one");
  // The new conversation is a new session, with its own prompt_cache_key.
  const key = (i: number) => s.requests[i]!.body.prompt_cache_key;
  expect(key(0)).toBe(key(1));
  expect(typeof key(2)).toBe("string");
  expect(key(2)).not.toBe(key(0));
}, 20_000);

test("a stream cut after part of the answer says that part is kept and how to go on", async () => {
  const s = await serve({ fault: "truncate", text: "partial answer that got" }, { text: "the rest of it" });
  const pty = await start({ baseURL: s.url, env: { SHIRO_MAX_RETRIES: "0" } });
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("error:");
  await pty.waitFor("what came before the error is kept in the conversation: a prompt such as “go on” continues");
  expect(pty.screen()).not.toContain("↑ and enter send the prompt again");
  pty.line("go on");
  await pty.waitFor("the rest of it");
  expect(JSON.stringify(s.requests[1]!.body)).toContain("partial answer that got");
}, 20_000);

test("/memory with too few notes to merge says where to see them; /notes then lists them", async () => {
  const s = await serve(
    { toolCalls: [{ name: "remember", input: { kind: "command", text: "Run the math tests with bun test src/math.test.ts" } }] },
    { text: "noted" },
  );
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("remember how to test");
  await pty.waitFor("noted");
  await pty.waitForPrompt(2);
  pty.line("/memory");
  await pty.waitFor("Project memory has 1 note; compaction starts above 60, so nothing was changed.\n/notes lists them.");
  pty.line("/notes");
  await pty.waitFor("Run the math tests with bun test src/math.test.ts", { count: 2 });
}, 20_000);

test("/compact whose summary is unusable keeps the transcript and says what to do next; trying again compacts", async () => {
  const summary = ["## Goal", "fix add", "## Files touched", "src/math.ts: add fixed", "## What remains", "write tests for mul"].join("\n");
  const s = await serve({ text: "an answer" }, { text: "ok" }, { text: summary });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("fix add");
  await pty.waitFor("an answer");
  await pty.waitForPrompt(2);
  pty.line("/compact");
  await pty.waitFor("The model's summary was empty or unusable, so the transcript was kept as it was: /compact again to retry, or /clear to start a new conversation.");
  pty.line("/compact");
  await pty.waitFor("Compacted:");
}, 20_000);
