import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, NO_NOTES_SUGGESTED, usePty, userTexts } from "./pty.ts";

const { serve, start } = usePty();
const CTRL_U = "\x15";
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

test("/undo restores every file the turn changed, takes the conversation and task list back, and puts the prompt in the input", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "edit.txt"), "one\ntwo\n");
  writeFileSync(join(cwd, "doomed.txt"), "bye\n");
  writeFileSync(join(cwd, "old.txt"), "moving\n");
  const s = await serve(
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "reorganise", status: "in_progress" }] } }] },
    { toolCalls: [{ name: "edit_file", input: { path: "edit.txt", oldString: "two", newString: "TWO" } }] },
    { toolCalls: [{ name: "write_file", input: { path: "src/new.ts", content: "export {}\n" } }] },
    { toolCalls: [{ name: "move_file", input: { from: "old.txt", to: "moved/old.txt" } }] },
    { toolCalls: [{ name: "delete_file", input: { path: "doomed.txt" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch ran.txt" } }, { name: "bash", input: { command: "touch again.txt" } }] },
    { text: "reorganised" },
    { text: "second try answered" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("reorganise the files");
  await pty.waitFor("5 files changed · /undo to restore · bash ran 2 commands: /undo cannot revert what they may have changed");
  await pty.waitForPrompt(2);
  expect(existsSync(join(cwd, "moved/old.txt"))).toBe(true);

  pty.line("/undo");
  await pty.waitFor('Undid the turn "reorganise the files":');
  await pty.waitForInput("reorganise the files");
  const screen = pty.screen();
  for (const line of ["  restored edit.txt", "  removed src/new.ts", "  recreated old.txt", "  removed moved/old.txt", "  recreated doomed.txt", "The conversation is back to before that prompt."]) {
    expect(screen).toContain(line);
  }
  expect(readFileSync(join(cwd, "edit.txt"), "utf8")).toBe("one\ntwo\n");
  expect(readFileSync(join(cwd, "doomed.txt"), "utf8")).toBe("bye\n");
  expect(readFileSync(join(cwd, "old.txt"), "utf8")).toBe("moving\n");
  expect(existsSync(join(cwd, "src"))).toBe(false);
  expect(existsSync(join(cwd, "moved"))).toBe(false);

  pty.write(CTRL_U);
  pty.line("/todos");
  await pty.waitFor("The task list is empty.");
  pty.line("try again, differently");
  await pty.waitFor("second try answered");
  expect(userTexts(s.requests.at(-1)!.body)).toEqual(["try again, differently"]);
}, 30_000);

test("/undo twice walks back two turns; after -c it still works; /undo stops at /compact and says so", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "first\n" } }] },
    { text: "one" },
    { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "second\n" } }] },
    { text: "two" },
    { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "third\n" } }] },
    { text: "three" },
    NO_NOTES_SUGGESTED, // the session changed a file: leaving asks for suggested notes
    { text: "again" },
    { text: "## Goal\nWrite files.\n\n## Files touched\na.txt\n\n## Decisions\nNone.\n\n## What remains\nNothing." },
    { toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "b\n" } }] },
    { text: "four" },
  );
  let pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  for (const [i, prompt] of ["write first", "write second", "write third"].entries()) {
    await pty.waitForPrompt(i + 1);
    pty.line(prompt);
  }
  await pty.waitFor("three");
  await pty.waitForPrompt(4);
  pty.line("/undo");
  await pty.waitForInput("write third");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("second\n");
  pty.write(CTRL_U);
  pty.line("/undo");
  await pty.waitForInput("write second");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("first\n");
  await pty.waitForPrompt(1); // /undo has ended: while a command runs, a first ctrl-d only warns
  pty.write(CTRL_U + KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c", "--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("/undo");
  await pty.waitForInput("write first");
  expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  pty.write(CTRL_U);
  pty.line("/undo");
  await pty.waitFor("Nothing to undo: no turn of this session is left to undo.");

  // A turn, /compact, another turn: /undo takes back the last and stops at the compaction.
  pty.line("write again");
  await pty.waitFor("again", { count: 2 }); // the prompt's echo, then the answer
  pty.line("/compact");
  await pty.waitFor("Compacted:");
  pty.line("write b");
  await pty.waitFor("four");
  pty.line("/undo");
  await pty.waitForInput("write b");
  pty.write(CTRL_U);
  pty.line("/undo");
  await pty.waitFor("/undo stops here: the conversation was compacted (/compact) before that, and a compaction cannot be undone.");
}, 40_000);

test("a file changed outside shiro is shown and asked about: n keeps it, y overwrites it", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "original\n");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "by shiro\n" } }] }, { text: "rewritten" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("rewrite a");
  await pty.waitFor("rewritten");
  await pty.waitForPrompt(2);
  writeFileSync(join(cwd, "a.txt"), "my own edit\n");
  pty.line("/undo");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("a.txt changed after that turn (outside shiro, or later). Overwrite it"));
  pty.write("n");
  await pty.waitFor("Nothing was undone.");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("my own edit\n");
  pty.line("/undo");
  await pty.waitUntil("the question again", () => pty.cursorLine().includes("y overwrite · n cancel"));
  pty.write("y");
  await pty.waitFor("  restored a.txt");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
}, 30_000);

test("a file the turn created and the user then edited: the question says undo deletes it, not overwrites it", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "new.txt", content: "by shiro\n" } }] }, { text: "created" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("create new");
  await pty.waitFor("created");
  await pty.waitForPrompt(2);
  writeFileSync(join(cwd, "new.txt"), "by shiro\nmy own line\n");
  pty.line("/undo");
  await pty.waitUntil("the question", () => pty.cursorLine().includes("y delete · n cancel"));
  expect(pty.screen()).toContain("new.txt changed after that turn (outside shiro, or later). Delete it (the turn created it)?");
  expect(pty.screen()).not.toContain("Overwrite");
  pty.write("y");
  await pty.waitFor("  removed new.txt");
  expect(existsSync(join(cwd, "new.txt"))).toBe(false);
}, 30_000);

test("/diff shows the last turn's changes, paged; /diff session all of them; apply_patch's approval shows every file", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "alpha\n");
  const long = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const s = await serve(
    { toolCalls: [{ name: "apply_patch", input: { input: patch("*** Update File: a.txt", "@@", "-alpha", "+ALPHA", "*** Add File: b.txt", "+bee") } }] },
    { text: "patched" },
    { toolCalls: [{ name: "write_file", input: { path: "long.txt", content: long } }] },
    { text: "wrote long" },
  );
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("patch");
  await pty.waitFor("apply_patch wants to edit: 2 files  +2 -1");
  expect(pty.screen()).toContain("a.txt  +1 -1\n      @@ -1,1 +1,1 @@\n    1 -alpha\n    1 +ALPHA");
  expect(pty.screen()).toContain("b.txt (new file)  +1 -0\n      @@ -0,0 +1,1 @@\n    1 +bee");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("patched");
  await pty.waitForPrompt(2);
  pty.line("/diff");
  await pty.waitFor('What the turn "patch" changed:');
  await pty.waitFor("+++ b/b.txt");
  expect(pty.screen()).toContain("a.txt  +1 -1\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-alpha\n+ALPHA");

  pty.line("write long");
  await pty.waitUntil("the write question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("wrote long");
  await pty.waitForPrompt(4);
  pty.line("/diff");
  await pty.waitUntil("the pager", () => /^-- 27 of 65 lines · space or enter: more · q: stop --/.test(pty.cursorLine()));
  const sinceDiff = () => pty.screen().slice(pty.screen().lastIndexOf("› /diff"));
  expect(sinceDiff()).toContain("\n+line 22\n");
  expect(sinceDiff()).not.toContain("+line 23");
  pty.write(" ");
  await pty.waitUntil("the next page", () => sinceDiff().includes("\n+line 40\n"));
  await pty.waitUntil("the second page", () => pty.cursorLine().startsWith("-- 54 of 65 lines"));
  pty.write("q");
  await pty.waitFor("(11 more lines not shown)");
  await pty.waitForPrompt(5);
  pty.line("/diff session");
  await pty.waitFor("What this session changed (3 files):");
}, 40_000);

test("a prompt a command wrote (/init, a custom command, !cmd output) is replayed and given back by /undo as typed", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  mkdirSync(join(cwd, ".shiro/commands"), { recursive: true });
  writeFileSync(join(cwd, ".shiro/commands/review.md"), "---\ndescription: Review a file\n---\nReview $1 with care, line by line.\n");
  const s = await serve(
    { toolCalls: [{ name: "write_file", input: { path: "AGENTS.md", content: "# AGENTS.md\n" } }] },
    { text: "wrote the instructions" },
    { text: "reviewed it" },
    { text: "saw the output" },
    NO_NOTES_SUGGESTED, // /init wrote a file: leaving asks for suggested notes
  );
  let pty = await start({ baseURL: s.url, home, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("/init");
  await pty.waitFor("wrote the instructions");
  await pty.waitForPrompt(2);
  pty.line("/review a.ts");
  await pty.waitFor("reviewed it");
  await pty.waitForPrompt(3);
  pty.line("!nosuchcmd");
  await pty.waitFor("the output goes with your next prompt");
  pty.line("what now");
  await pty.waitFor("saw the output");
  await pty.waitForPrompt(5);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  pty = await start({ baseURL: s.url, home, cwd, args: ["-c", "--yolo"] });
  await pty.waitFor("── resumed session");
  const replay = pty.screen();
  expect(replay).toMatch(/› \/init\n/);
  expect(replay).toMatch(/› \/review a\.ts\n/);
  expect(replay).toMatch(/› !nosuchcmd\n\n› what now\n/);
  expect(replay).not.toContain("I ran these commands");
  expect(replay).not.toContain("Review a.ts with care");
  expect(replay).not.toContain("instructions for coding agents");

  pty.line("/undo");
  await pty.waitFor('Took the conversation back to before "what now"');
  await pty.waitForInput("what now");
  await pty.waitFor("The prompt is back in the input: edit it and press enter, or clear it with ctrl-c.");
  pty.write(KEYS.ctrlC);
  pty.line("/undo");
  await pty.waitFor('Took the conversation back to before "/review a.ts"');
  await pty.waitForInput("/review a.ts");
  pty.write(KEYS.ctrlC);
  pty.line("/undo");
  await pty.waitFor('Undid the turn "/init"');
  await pty.waitForInput("/init");
  expect(existsSync(join(cwd, "AGENTS.md"))).toBe(false);
}, 40_000);

test("commands that only read (ls, cat) are not counted among those /undo cannot revert", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "alpha\n");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "ls" } }, { name: "bash", input: { command: "cat a.txt" } }, { name: "bash", input: { command: "touch b.txt" } }] },
    { text: "looked and touched" },
    { toolCalls: [{ name: "bash", input: { command: "ls -la" } }] },
    { text: "only looked" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("look, then touch");
  await pty.waitFor("looked and touched");
  await pty.waitFor("bash ran 1 command: /undo cannot revert what it may have changed");
  await pty.waitForPrompt(2);
  pty.line("only look");
  await pty.waitFor("only looked");
  await pty.waitForPrompt(3);
  expect(pty.screen().split("cannot revert").length - 1).toBe(1); // the reading turn says nothing about commands
}, 30_000);

test("that /undo cannot revert what commands did is said once a session, not at every turn that ran one", async () => {
  const cwd = tempDir();
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "touch a.txt" } }] },
    { text: "first done" },
    { toolCalls: [{ name: "bash", input: { command: "touch b.txt" } }, { name: "write_file", input: { path: "c.txt", content: "c\n" } }] },
    { text: "second done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("touch a");
  await pty.waitFor("bash ran 1 command: /undo cannot revert what it may have changed");
  await pty.waitForPrompt(2);
  pty.line("touch b and write c");
  await pty.waitFor("second done");
  // The file change is still reported; the commands' caveat is not repeated.
  await pty.waitFor("1 file changed · /undo to restore");
  await pty.waitForPrompt(3);
  expect(pty.screen().split("cannot revert").length - 1).toBe(1);
}, 30_000);

/** A session with one answered turn, then /compact, whose request is refused with a 429 first (`retryAfter` seconds). */
async function compactRateLimited(retryAfter: string, ...after: Parameters<typeof serve>) {
  const limited = { status: 429, headers: { "retry-after": retryAfter }, body: { error: { message: "slow down", type: "rate_limit" } } };
  const s = await serve({ text: "an answer" }, limited, ...after);
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("a question");
  await pty.waitFor("an answer");
  await pty.waitForPrompt(2);
  pty.line("/compact");
  return { s, pty };
}

test("/compact says when its request is rate-limited and tried again, as a turn does", async () => {
  const summary = ["## Goal\nAnswer the question.", "## Files touched\nnone", "## Decisions\nnone", "## Commands and outcomes\nnone", "## What remains\nNothing."].join("\n\n");
  const { pty } = await compactRateLimited("0.05", { text: summary });
  await pty.waitFor("Compacted:");
  expect(pty.screen()).toMatch(/note: .*slow down; retrying in 50ms \(attempt 2 of \d+\)/);
}, 20_000);

test("esc while /compact waits to retry stops it, says so, and keeps the transcript", async () => {
  const { s, pty } = await compactRateLimited("5");
  await pty.waitFor("retrying in 5.0s");
  pty.write(KEYS.esc);
  await pty.waitFor("Stopped: the transcript was kept as it was.");
  expect(pty.screen()).not.toContain("slow down\n");
  expect(s.requests).toHaveLength(2);
}, 20_000);
