// What the transcript looks like to a person: Markdown rendered and wrapped, marks that say how
// a call ended, long output collapsed, the live task panel, the context meter.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/cli.ts";
import { KEYS, NO_NOTES_SUGGESTED, STATUS_LINE, userTexts, usePty } from "./pty.ts";

const { serve, start } = usePty();

const ANSWER = [
  "## What I found",
  "",
  "The loop stops **one page early**: `i < pages - 1` should be `i < pages`, and *that* is all.",
  "",
  "- the first item of a list whose words run on well past the width of a narrow terminal window, and then on past a wide one too",
  "- second",
  "> a quoted line",
  "",
  "```ts",
  "const pages = 3; // three",
  "```",
  "",
  "Words: " + Array.from({ length: 30 }, (_, i) => `alpha${String(i).padStart(2, "0")}`).join(" ") + ".",
].join("\n");

for (const cols of [60, 110]) {
  test(`Markdown is rendered and wrapped at word boundaries at ${cols} columns, a blank line after the tool lines`, async () => {
    const cwd = tempDir("shiro-work-");
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
    const s = await serve({ toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] }, { text: ANSWER, delayMs: 2 });
    const pty = await start({ baseURL: s.url, cwd, cols });
    await pty.waitForPrompt(1);
    pty.line("why?");
    await pty.waitFor("alpha29.");
    await pty.waitForPrompt(2);
    const screen = pty.screen();
    expect(screen).toContain("  ✓ read_file: 2 lines · notes.txt\n\nWhat I found\n");
    expect(screen).toContain("The loop stops one page early: i < pages - 1 should be");
    expect(screen).not.toContain("**");
    expect(screen).not.toContain("##");
    expect(screen).not.toContain("```");
    expect(screen).toContain("• the first item of a list");
    expect(screen).toContain("│ a quoted line");
    expect(screen).toContain("  │ const pages = 3; // three");
    // Bold, inline code and the highlighted keyword are styled, not marked.
    expect(pty.raw()).toContain("\x1b[1mone page early\x1b[22m");
    expect(pty.raw()).toContain("\x1b[36mi < pages - 1\x1b[39m");
    expect(pty.raw()).toContain("\x1b[35mconst\x1b[39m");
    // Every row of the paragraph ends at a whole word and fits the width; list rows hang under the text.
    const rows = screen.split("\n");
    const words = rows.filter((r) => /alpha\d\d/.test(r));
    expect(words.length).toBeGreaterThan(cols === 60 ? 4 : 2);
    for (const row of words) {
      expect(row.length).toBeLessThan(cols);
      expect(row).toMatch(/^(Words: )?(alpha\d\d )*alpha\d\d\.?$/);
    }
    const item = rows.findIndex((r) => r.startsWith("• the first item"));
    expect(rows[item + 1]).toMatch(/^ {2}\S/);
  }, 20_000);
}

test("a Markdown table streamed in pieces is drawn with aligned columns, on the screen and when resumed", async () => {
  const cwd = tempDir("shiro-work-");
  const table = ["Results:", "", "| file | lines | state |", "| :--- | ---: | --- |", "| parser.ts | 412 | ok |", "| a.ts | 7 | changed |", "", "Done."].join("\n");
  const s = await serve({ text: table, delayMs: 2 });
  const pty = await start({ baseURL: s.url, cwd, cols: 80 });
  await pty.waitForPrompt(1);
  pty.line("count them");
  await pty.waitFor("Done.");
  await pty.waitForPrompt(2);
  const drawn = ["file      │ lines │ state", "──────────┼───────┼────────", "parser.ts │   412 │ ok", "a.ts      │     7 │ changed"];
  expect(pty.screen()).toContain(drawn.join("\n"));
  expect(pty.screen()).not.toContain("| :---");
  // The same table when the session is replayed.
  const home = pty.home;
  pty.line("/exit");
  await pty.exited;
  const again = await start({ baseURL: s.url, cwd, cols: 80, home, args: ["-c"] });
  await again.waitFor("Done.");
  expect(again.screen()).toContain(drawn.join("\n"));
}, 20_000);

test("a Markdown table inside a list item is drawn indented under the item, on the screen and when resumed", async () => {
  const cwd = tempDir("shiro-work-");
  const text = ["Two steps:", "", "1. count them:", "   | file | lines |", "   | :--- | ---: |", "   | parser.ts | 412 |", "   | a.ts | 7 |", "   then check the totals", "- and done"].join("\n");
  const s = await serve({ text, delayMs: 2 });
  const pty = await start({ baseURL: s.url, cwd, cols: 80 });
  await pty.waitForPrompt(1);
  pty.line("count them");
  await pty.waitFor("and done");
  await pty.waitForPrompt(2);
  const drawn = ["1. count them:", "   file      │ lines", "   ──────────┼──────", "   parser.ts │   412", "   a.ts      │     7", "   then check the totals", "• and done"].join("\n");
  expect(pty.screen()).toContain(drawn);
  const home = pty.home;
  pty.line("/exit");
  await pty.exited;
  const again = await start({ baseURL: s.url, cwd, cols: 80, home, args: ["-c"] });
  await again.waitFor("and done");
  expect(again.screen()).toContain(drawn);
}, 20_000);

test("after a resize, new output wraps to the new width", async () => {
  const paragraph = Array.from({ length: 40 }, (_, i) => `beta${String(i).padStart(2, "0")}`).join(" ");
  const s = await serve({ text: paragraph + " one." }, { text: paragraph + " two." });
  const pty = await start({ baseURL: s.url, cols: 110 });
  await pty.waitForPrompt(1);
  pty.line("wide");
  await pty.waitForPrompt(2);
  pty.resize(50);
  await Bun.sleep(100); // SIGWINCH reaches shiro
  pty.line("narrow");
  await pty.waitFor("two.");
  await pty.waitForPrompt(3);
  const rows = pty.screen().split("\n").filter((r) => /beta\d\d/.test(r));
  const split = rows.findIndex((r) => r.endsWith("one."));
  expect(rows.slice(0, split + 1).some((r) => r.length > 60)).toBe(true);
  for (const row of rows.slice(split + 1)) {
    expect(row.length).toBeLessThan(50);
    expect(row).toMatch(/^(beta\d\d )*(beta\d\d|two\.)$/);
  }
}, 20_000);

test("error and approval lines wrap to the width too, their continuations indented (the question too)", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "read_file", input: { path: "src/components/a/rather/deeply/nested/folder/missing-file.ts" } }] },
    { toolCalls: [{ name: "bash", input: { command: "printf %s " + "word ".repeat(20).trim() } }] },
    { text: "done" },
  );
  const pty = await start({ baseURL: s.url, cwd, cols: 60 });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitUntil("the bash question", () => pty.cursorLine().includes("esc interrupts"));
  const screen = pty.screen();
  expect(screen).toContain("allow? y once · a always (this exact bash command) · n\n  deny · esc interrupts");
  expect(screen).toContain("  ✗ read_file: no such file src/components/a/rather/deeply/n\n    ested/folder/missing-file.ts");
  for (const row of screen.split("\n")) expect(row.length).toBeLessThanOrEqual(60);
  expect(screen).toMatch(/bash wants to run: printf %s word[^\n]*\n  word word/);
  pty.write("y");
  await pty.waitForPrompt(2);
}, 20_000);

test("marks tell the truth: exit 0, exit 1, denied, interrupted, in the loop and in sessions show", async () => {
  const cwd = tempDir("shiro-work-");
  const home = tempDir("shiro-home-");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "printf fine" } }] },
    { toolCalls: [{ name: "bash", input: { command: "sh -c 'exit 3'" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch nope" } }] },
    { toolCalls: [{ name: "bash", input: { command: "echo started; sleep 30 && touch late" } }] },
    { text: "done" },
    NO_NOTES_SUGGESTED, // five steps: leaving asks for suggested notes
  );
  const pty = await start({ baseURL: s.url, cwd, home });
  await pty.waitForPrompt(1);
  pty.line("run them");
  const answer = async (key: string, count: number) => {
    await pty.waitUntil(`question ${count}`, () => pty.cursorLine().includes("n deny") && pty.screen().split("bash wants to run").length - 1 === count);
    pty.write(key);
  };
  await answer("y", 1);
  await answer("y", 2);
  await answer("n", 3);
  await pty.waitFor("what should shiro do instead?");
  pty.write(KEYS.enter); // nothing to say instead: just deny
  await answer("y", 4);
  await pty.waitFor("    started");
  pty.write(KEYS.ctrlC);
  await pty.waitFor("done");
  await pty.waitForPrompt(2);
  const screen = pty.screen();
  expect(screen).toContain("  ✓ bash: exit 0 · printf fine");
  expect(screen).toContain("  ✗ bash: exit 3 · sh -c 'exit 3'");
  expect(screen).toContain("  ⊘ denied; the model is told not to retry it");
  expect(screen).toContain("  ■ bash: interrupted · echo started; sleep 30 && touch late");
  expect(pty.raw()).toContain("\x1b[31m  ✗ bash: exit 3"); // red
  expect(pty.raw()).toContain("\x1b[33m  ⊘ denied"); // yellow
  expect(pty.raw()).toContain("\x1b[35m  ■ bash: interrupted"); // magenta
  expect(pty.raw()).toMatch(/\x1b\[2m {2}✓ bash: exit 0/); // dim
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.exited;

  const id = readdirSync(join(home, ".shiro-neko", "sessions")).find((n) => n.endsWith(".json"))!.replace(/\.json$/, "");
  const shown = await runShiro(["sessions", "show", id], { home, cwd });
  expect(shown.code).toBe(0);
  // The live lines again, through the same function.
  expect(shown.stdout).toContain("  ✓ bash: exit 0 · printf fine\n");
  expect(shown.stdout).toContain("  ✗ bash: exit 3 · sh -c 'exit 3'\n");
  expect(shown.stdout).toContain("  ⊘ bash touch nope: not run (declined)\n");
  expect(shown.stdout).toContain("  ■ bash: interrupted · echo started; sleep 30 && touch late");
}, 30_000);

const THOUSAND = { toolCalls: [{ name: "bash", input: { command: "seq 1 1000" } }] };

test("a 1,000-line output shows its last 10 lines and a count; /last prints it whole", async () => {
  const s = await serve(THOUSAND, { text: "counted" });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("count");
  await pty.waitFor("counted");
  await pty.waitForPrompt(2);
  const rows = pty.screen().split("\n");
  expect(rows).toContain("    … 990 more lines · /last shows all");
  expect(rows).toContain("    1000");
  expect(rows).toContain("    991");
  expect(rows).not.toContain("    990");
  pty.line("/last");
  await pty.waitFor(/^999\n1000$/m);
  const after = pty.screen().split("\n");
  expect(after).toContain("bash seq 1 1000 · exit 0");
  for (const n of [1, 2, 500, 990, 1000]) expect(after).toContain(String(n));
}, 20_000);

test("a progress bar redrawn with carriage returns shows as the one line a terminal would leave, live, in the transcript and in /last", async () => {
  // Each step is its own chunk, and the last `\r` and its newline come apart, as they do from a real bar.
  const command = "printf 'fetching deps\\n'; for p in 10 55 100; do printf 'downloading %s%%\\r' $p; sleep 0.3; done; printf '\\n'; printf 'abcdef\\rXY\\n'";
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "fetched" });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("fetch");
  await pty.waitFor("    downloading 55%");
  expect(pty.screen()).not.toContain("    downloading 10%");
  await pty.waitFor("fetched");
  await pty.waitForPrompt(2);
  const rows = pty.screen().split("\n");
  const output = rows.slice(rows.indexOf("    fetching deps"), rows.findIndex((r) => r.startsWith("  ✓ bash")));
  expect(output).toEqual(["    fetching deps", "    downloading 100%", "    XYcdef"]);
  pty.line("/last");
  await pty.waitForPrompt(3);
  const last = pty.screen().split("\n");
  const at = last.findIndex((r) => r.startsWith("bash printf"));
  expect(last.slice(at + 2, at + 6)).toEqual(["fetching deps", "downloading 100%", "XYcdef", "›"]);
}, 20_000);

test("/last goes through $PAGER when it is set, with the whole output", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(THOUSAND, { text: "counted" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"], env: { PAGER: `cat > '${join(cwd, "paged.txt")}'` } });
  await pty.waitForPrompt(1);
  pty.line("count");
  await pty.waitFor("counted");
  await pty.waitForPrompt(2);
  pty.line("/last");
  await pty.waitUntil("the pager's file", () => existsSync(join(cwd, "paged.txt")) && readFileSync(join(cwd, "paged.txt"), "utf8").endsWith("1000\n"));
  const paged = readFileSync(join(cwd, "paged.txt"), "utf8").split("\n");
  expect(paged[0]).toBe("bash seq 1 1000 · exit 0");
  expect(paged.slice(2, -1)).toEqual(Array.from({ length: 1000 }, (_, i) => String(i + 1)));
  await pty.waitForPrompt(3);
  pty.line("/help"); // the loop reads keys again
  await pty.waitFor("Keys");
}, 20_000);

test("the live task panel shows progress and the current task during the turn; at its end the list as the turn left it stays in the transcript", async () => {
  const cwd = tempDir("shiro-work-");
  const wait = (file: string) => ({ toolCalls: [{ name: "bash", input: { command: `until test -f ${file}; do sleep 0.05; done` } }] });
  const s = await serve(
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "read the code", status: "in_progress" }, { content: "fix the bug", status: "pending" }] } }] },
    wait("go1"),
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "read the code", status: "completed" }, { content: "fix the bug", status: "in_progress" }] } }] },
    wait("go2"),
    { text: "all done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("work");
  await pty.waitFor(/tasks \.+ 0\/2\n {2}\[~\] read the code\n⠋|tasks [#.]+ 0\/2\n {2}\[~\] read the code\n/);
  await pty.waitFor(/running bash · [1-9]\d*s · ctrl-c stops the command · esc to interrupt/); // the spinner counts seconds
  writeFileSync(join(cwd, "go1"), "");
  await pty.waitFor(/tasks #+\.+ 1\/2\n {2}\[~\] fix the bug\n/);
  expect(pty.screen()).not.toContain("[~] read the code");
  writeFileSync(join(cwd, "go2"), "");
  await pty.waitFor("all done");
  await pty.waitForPrompt(2);
  expect(pty.screen()).not.toContain("  [~] fix the bug"); // the panel went with the live area
  // The whole list once, under the answer.
  expect(pty.screen()).toMatch(/all done\n\ntasks #+\.+ 1\/2\n\[x\] read the code\n\[~\] fix the bug\n/);
  expect(pty.screen().match(/^tasks /gm)).toHaveLength(1);
  pty.line("/todos");
  await pty.waitFor("[~] fix the bug", { count: 2 });
}, 20_000);

test("the context meter measures the request that will be sent, after pruning, not the whole history", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "big.txt"), "0123456789abcdef\n".repeat(1500)); // ~6,400 tokens once read
  const s = await serve({ toolCalls: [{ name: "read_file", input: { path: "big.txt" } }] }, { text: "read it" }, { text: "two" }, { text: "three" });
  const pty = await start({ baseURL: s.url, cwd, env: { SHIRO_COMPACT_AT: "2000" } });
  await pty.waitForPrompt(1);
  for (const [i, prompt] of ["read big.txt", "and?", "and then?"].entries()) {
    pty.line(prompt);
    await pty.waitForPrompt(i + 2);
  }
  await pty.waitFor("context compacted");
  const status = pty.screen().split("\n").at(-1)!;
  expect(status).toMatch(STATUS_LINE);
  const ctx = Number(/ctx ~([\d.]+)k\//.exec(status)![1]) * 1000;
  expect(ctx).toBeLessThan(6_400); // the file alone would be more; pruning digests it
  const last = s.requests.at(-1)!.body; // the next request is this one and a short answer more
  const sent = JSON.stringify({ instructions: last.instructions, tools: last.tools, input: last.input, messages: last.messages }).length / 4;
  expect(ctx).toBeGreaterThan(sent * 0.8);
  expect(ctx).toBeLessThan(sent * 1.2);
}, 20_000);

test("a large paste shows as [pasted N lines] and is sent whole", async () => {
  const s = await serve({ text: "got the log" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  const log = Array.from({ length: 80 }, (_, i) => `log line ${i + 1}`).join("\n");
  pty.write("look at this: \x1b[200~" + log + "\x1b[201~");
  await pty.waitForInput("look at this: [pasted 80 lines]");
  pty.write(KEYS.enter);
  await pty.waitFor("got the log");
  expect(pty.screen()).toContain("› look at this: [pasted 80 lines]");
  expect(pty.screen()).not.toContain("log line 40");
  expect(userTexts(s.requests[0]!.body)).toEqual([`look at this: ${log}`]);
}, 20_000);

test("NO_COLOR: no colour codes, and multi-line editing and the command list still work", async () => {
  const s = await serve({ text: "**bold** and `code`" });
  const pty = await start({ baseURL: s.url, env: { NO_COLOR: "1" } });
  await pty.waitForPrompt(1);
  pty.write("/re"); // the command list opens as the name is typed
  await pty.waitFor(/› \/re\n {2}› \/re\w+ +\S.*\n {4}\/re\w+ +\S/);
  pty.write(KEYS.esc);
  await pty.waitUntil("the picker to close", () => !pty.screen().includes("    /re"));
  pty.write("\x15first line\nsecond line"); // ctrl-u, then ctrl-j between the lines
  await pty.waitUntil("two input rows", () => pty.screen().includes("› first line\n  second line"));
  pty.write(KEYS.enter);
  await pty.waitFor("bold and `code`");
  await pty.waitForPrompt(2);
  expect(userTexts(s.requests[0]!.body)).toEqual(["first line\nsecond line"]);
  expect(pty.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
}, 20_000);

test("NO_COLOR: a heading keeps its marks, so it does not read as body text", async () => {
  const s = await serve({ text: "## The plan\n\nFirst fix the bound.\n\n### Then\n\nRun the tests." });
  const pty = await start({ baseURL: s.url, env: { NO_COLOR: "1" } });
  await pty.waitForPrompt(1);
  pty.line("plan it");
  await pty.waitFor("Run the tests.");
  const rows = pty.screen().split("\n");
  expect(rows).toContain("## The plan");
  expect(rows).toContain("### Then");
  expect(rows).toContain("First fix the bound.");
}, 20_000);

test("after /clear, /last has nothing of the conversation before it", async () => {
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "echo from-the-old-conversation" } }] }, { text: "echoed" });
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("echo it");
  await pty.waitFor("echoed");
  await pty.waitForPrompt(2);
  pty.line("/clear");
  await pty.waitFor("Started a new conversation");
  pty.line("/last");
  await pty.waitFor("No tool result in this session yet.");
}, 20_000);

test("/last after a command the guard refused speaks of that command: not run, and why", async () => {
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "echo the-earlier-output" } }] },
    { toolCalls: [{ name: "bash", input: { command: "rm -rf /" } }] },
    { text: "stopped" },
  );
  const pty = await start({ baseURL: s.url, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("clean up");
  await pty.waitFor("stopped");
  await pty.waitForPrompt(2);
  pty.line("/last");
  await pty.waitFor("bash rm -rf / · not run");
  expect(pty.screen()).not.toContain("the-earlier-output\n\n");
  expect(pty.screen().split("bash rm -rf / · not run")[1]).toMatch(/\S/);
}, 20_000);

test("calls made together: each file tool's result line names its file, as bash's names its command", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
  const s = await serve(
    {
      toolCalls: [
        { name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "TWO" } },
        { name: "write_file", input: { path: "b.txt", content: "x\ny\n" } },
        { name: "bash", input: { command: "echo hi" } },
      ],
    },
    { text: "all three done" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo", "--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("do three things");
  await pty.waitFor("all three done");
  const screen = pty.screen();
  expect(screen).toContain("  ✓ edit_file: +1 -1 · a.txt\n");
  expect(screen).toContain("  ✓ write_file: created, 2 lines · b.txt\n");
  expect(screen).toContain("  ✓ bash: exit 0 · echo hi\n");
}, 20_000);
