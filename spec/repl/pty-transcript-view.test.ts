// The transcript view (ctrl-o, /transcript): the whole session — each call's full input and
// output, reasoning, `!cmd` runs — in the built-in pager or $PAGER, after -c too, and back to the
// loop as it was. And `!cmd` on screen: its tail with the mark of how it ended; /last knows it.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { KEYS, usePty, type Pty } from "./pty.ts";

const { serve, start } = usePty();
const CTRL_O = "\x0f";
/** The approval question with its `d` choice is on screen (wrapped or not). */
const askedWithD = (pty: Pty) => pty.waitUntil("the question with d", () => pty.screen().replace(/\s+/g, " ").includes("n deny · d whole diff · esc interrupts"));

/** A turn that thinks, then runs a command printing `seq 1 <n>` and a last line, then answers. */
const countTurn = (n: number) => [
  { reasoning: "The user wants the numbers counted out", toolCalls: [{ name: "bash", input: { command: `seq 1 ${n}; echo FINAL-LINE` } }] },
  { text: "Counted them all." },
];

test("ctrl-o opens the whole session in the built-in pager at 50 columns: search with / and n, q goes back to the loop as it was", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(...countTurn(80));
  const pty = await start({ baseURL: s.url, cwd, cols: 50, rows: 20, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("count to eighty");
  await pty.waitFor("Counted them all.");
  await pty.waitForPrompt(2);
  pty.line("!printf 'shell-one\\nshell-two\\n'; exit 3");
  await pty.waitFor("the output goes with your next prompt");
  await pty.waitForPrompt(2);
  const before = pty.screen();
  pty.write("half typed");
  await pty.waitForInput("half typed");
  const loop = pty.screen();

  pty.write(CTRL_O);
  await pty.waitFor(/transcript · 1-19 of \d+/);
  const page = pty.screen();
  expect(page).toContain("› count to eighty");
  expect(page).toContain("✻ reasoning");
  expect(page).toContain("  The user wants the numbers counted out");
  expect(page).toContain("→ bash seq 1 80; echo FINAL-LINE");
  expect(page).toContain("    command: seq 1 80; echo FINAL-LINE");
  expect(page).toContain("  ✓ bash · exit 0 · seq 1 80; echo FINAL-LINE");
  expect(page.split("\n").slice(0, 19)).toContain("    1");
  for (const row of page.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(50);

  // `/` searches; the match comes to the top of the page; the rest of the output is all there.
  pty.write("/");
  await pty.waitUntil("the search line", () => pty.cursorLine() === "/");
  pty.write("final-line\r");
  await pty.waitUntil("the first match on top", () => pty.screen().split("\n")[0] === "→ bash seq 1 80; echo FINAL-LINE");
  pty.write("n");
  await pty.waitUntil("the next match on top", () => pty.screen().split("\n")[0] === "    command: seq 1 80; echo FINAL-LINE");
  pty.write("nn");
  await pty.waitFor(/- ?96 of 96 \(end\)/); // the last match is near the end: the last page shows it
  expect(pty.screen().split("\n")).toContain("    FINAL-LINE");
  expect(pty.screen()).toContain("Counted them all.");
  expect(pty.screen()).toContain("! printf 'shell-one\\nshell-two\\n'; exit 3\n  ✗ exit 3\n    shell-one\n");
  expect(pty.screen()).toContain("    shell-two");
  pty.write("n");
  await pty.waitFor("not found: final-line");
  // Page up until the top of the transcript again.
  pty.write("\x1b[5~\x1b[5~\x1b[5~\x1b[5~\x1b[5~");
  await pty.waitUntil("the first page", () => pty.screen().split("\n")[0] === "› count to eighty");

  pty.write("q");
  await pty.waitUntil("the loop's screen back", () => pty.screen() === loop);
  expect(pty.screen().startsWith(before.split("\n").slice(0, 5).join("\n"))).toBe(true);
  // The input was kept, and keys edit it again.
  expect(pty.cursorLine()).toBe("› half typed");
  pty.write("!");
  await pty.waitForInput("half typed!");
}, 30_000);

test("/transcript after -c goes through $PAGER with every full output, and the session file does not carry them", async () => {
  const cwd = tempDir("shiro-work-");
  const home = tempDir("shiro-home-");
  const s = await serve(...countTurn(20_000), { text: "seen" });
  let pty = await start({ baseURL: s.url, cwd, home, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("count far");
  await pty.waitFor("Counted them all.");
  await pty.waitForPrompt(2);
  pty.line("!echo from-the-shell; false");
  await pty.waitFor("the output goes with your next prompt");
  pty.line("look");
  await pty.waitFor("seen");
  await pty.waitForPrompt(3);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  const paged = join(cwd, "paged.txt");
  pty = await start({ baseURL: s.url, cwd, home, args: ["-c"], env: { PAGER: `cat > '${paged}'` } });
  await pty.waitFor("── resumed session");
  await pty.waitForPrompt(1);
  pty.line("/transcript");
  await pty.waitUntil("the pager's file", () => existsSync(paged) && readFileSync(paged, "utf8").includes("› look"));
  const text = readFileSync(paged, "utf8");
  const lines = text.split("\n");
  // The model got 30,000 characters of the output; the transcript has every line.
  for (const n of [1, 10_000, 15_000, 20_000]) expect(lines).toContain(`    ${n}`);
  expect(lines).toContain("    FINAL-LINE");
  expect(text).toContain("! echo from-the-shell; false\n  ✗ exit 1\n    from-the-shell\n");
  expect(lines).toContain("    from-the-shell");
  expect(text.indexOf("› count far")).toBeLessThan(text.indexOf("! echo from-the-shell"));
  expect(text.indexOf("! echo from-the-shell")).toBeLessThan(text.indexOf("› look"));
  const sessions = join(home, ".shiro-neko", "sessions");
  const id = readdirSync(sessions).find((name) => name.endsWith(".transcript.jsonl"))!.replace(".transcript.jsonl", "");
  const saved = readFileSync(join(sessions, `${id}.json`), "utf8");
  expect(saved).not.toContain("\\n15000\\n");
  expect(statSync(join(sessions, `${id}.json`)).size).toBeLessThan(statSync(join(sessions, `${id}.transcript.jsonl`)).size / 2);
  await pty.waitForPrompt(1);
  pty.line("/help"); // the loop reads keys again
  await pty.waitFor("Keys");
}, 30_000);

test("!cmd shows its last lines after a count, and how it ended; /last shows its whole output", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd, env: { PAGER: `cat > '${join(cwd, "paged.txt")}'` } });
  await pty.waitForPrompt(1);
  pty.line("!seq 1 50; echo '3 tests failed'; exit 2");
  await pty.waitFor("the output goes with your next prompt");
  const rows = pty.screen().split("\n");
  const at = rows.indexOf("    … 41 more lines · /last shows all");
  expect(at).toBeGreaterThan(0);
  expect(rows.slice(at + 1, at + 12)).toEqual([...Array.from({ length: 9 }, (_, i) => `    ${42 + i}`), "    3 tests failed", "  ✗ exit 2 · the output goes with your next prompt"]);
  expect(rows).not.toContain("    1");
  pty.line("/last");
  await pty.waitUntil("the pager's file", () => existsSync(join(cwd, "paged.txt")) && readFileSync(join(cwd, "paged.txt"), "utf8").endsWith("3 tests failed\n"));
  const paged = readFileSync(join(cwd, "paged.txt"), "utf8").split("\n");
  expect(paged[0]).toBe("!seq 1 50; echo '3 tests failed'; exit 2 · ✗ exit 2");
  expect(paged.slice(2, -2)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
}, 20_000);

/** A write_file of a new 150-line file: its preview is cut after 80 diff lines. */
const bigWrite = () => ({ toolCalls: [{ name: "write_file", input: { path: "big.txt", content: Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join("\n") + "\n" } }] });

test("d at a question whose diff was cut shows the whole diff, numbered, in the pager; q goes back to the question, and y answers it", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(bigWrite(), { text: "wrote it" });
  const pty = await start({ baseURL: s.url, cwd, cols: 60, rows: 24 });
  await pty.waitForPrompt(1);
  pty.line("write the big file");
  await askedWithD(pty);
  expect(pty.screen()).toContain("    … 71 more diff lines · d shows the whole diff");
  expect(pty.screen()).toContain("     79 +line 79\n");
  const question = pty.screen();

  pty.write("d");
  await pty.waitFor(/the call asked about · 1-23 of 152/);
  expect(pty.screen().split("\n")[0]).toBe("write_file wants to write: big.txt (new file)  +150 -0");
  expect(pty.screen()).toContain("        @@ -0,0 +1,150 @@\n      1 +line 1\n      2 +line 2\n");
  pty.write("G");
  await pty.waitFor("(end)");
  expect(pty.screen()).toContain("    149 +line 149\n    150 +line 150\n");
  pty.write("q");
  await pty.waitUntil("the question again", () => pty.screen() === question);
  expect(existsSync(join(cwd, "big.txt"))).toBe(false); // nothing was allowed by looking

  pty.write("y");
  await pty.waitFor("wrote it");
  expect(readFileSync(join(cwd, "big.txt"), "utf8").split("\n")).toHaveLength(151);
}, 20_000);

test("a d typed ahead as the question appears goes to the input and opens nothing; after a pause d opens the whole diff", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(bigWrite(), { text: "wrote it" });
  const pty = await start({ baseURL: s.url, cwd, cols: 80, rows: 24, env: { SHIRO_ANSWER_QUIET_MS: undefined } });
  await pty.waitForPrompt(1);
  pty.line("write the big file");
  await askedWithD(pty);
  pty.write("d"); // within the question's quiet moment: typing, not an answer
  await pty.waitForInput("d");
  expect(pty.screen()).toContain("(typing goes to the prompt below; pause a moment, then answer)");
  expect(pty.screen()).not.toContain("the call asked about");

  await Bun.sleep(800);
  pty.write("d");
  await pty.waitFor("the call asked about · 1-23 of 152");
  pty.write("q");
  await askedWithD(pty);
  await pty.waitForInput("d"); // the typed-ahead key is still in the input
  await Bun.sleep(800);
  pty.write("y");
  await pty.waitFor("wrote it");
  expect(existsSync(join(cwd, "big.txt"))).toBe(true);
}, 20_000);

test("/fork carries the transcript into the copy; /rewind keeps what it took back there, under a mark", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ text: "first answer" });
  const paged = join(cwd, "paged.txt");
  const pty = await start({ baseURL: s.url, cwd, env: { PAGER: `cat > '${paged}'` } });
  await pty.waitForPrompt(1);
  pty.line("first prompt");
  await pty.waitFor("first answer");
  await pty.waitForPrompt(2);
  pty.line("/fork");
  await pty.waitFor("Forked:");
  pty.line("/transcript");
  await pty.waitUntil("the copy's transcript", () => existsSync(paged) && readFileSync(paged, "utf8").includes("first answer"));
  expect(readFileSync(paged, "utf8")).toBe("› first prompt\n\nfirst answer\n");

  pty.line("/rewind 1 conversation");
  await pty.waitFor("The prompt is back in the input");
  pty.write(KEYS.ctrlC); // the prompt put back in the input
  await pty.waitForInput("");
  pty.line("/transcript");
  await pty.waitUntil("the mark", () => readFileSync(paged, "utf8").includes("rewound"));
  expect(readFileSync(paged, "utf8")).toBe(
    "› first prompt\n\nfirst answer\n\n── rewound to just before prompt 1 (the conversation only): the turns above were taken back; the files stayed ──\n",
  );
}, 20_000);

test("ctrl-o during a turn: what the turn writes while the pager is open comes after it closes, and the queued prompt is sent", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "echo waiting; until test -f go; do sleep 0.05; done; echo released" } }] },
    { text: "the first turn is over" },
    { text: "the queued one is answered" },
  );
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitForPrompt(1);
  pty.line("wait for the file");
  await pty.waitFor("    waiting");
  pty.line("and then this");
  await pty.waitFor("queued (1): and then this");
  pty.write(CTRL_O);
  await pty.waitFor(/transcript · 1-\d+ of \d+/);
  expect(pty.screen()).toContain("→ bash echo waiting;");
  await Bun.write(join(cwd, "go"), "");
  // The turn goes on under the pager: its request for the answer is made (and the queued prompt's
  // may follow at once), nothing is drawn. (polled: the screen does not change, so a wait on it
  // would not look again)
  for (let i = 0; i < 200 && s.requests.length < 2; i++) await Bun.sleep(50);
  expect(s.requests.length).toBeGreaterThanOrEqual(2);
  await Bun.sleep(300);
  expect(pty.screen()).not.toContain("the first turn is over");
  pty.write("q");
  await pty.waitFor("the first turn is over");
  await pty.waitFor("the queued one is answered");
  const screen = pty.screen();
  expect(screen.indexOf("    released")).toBeLessThan(screen.indexOf("the first turn is over"));
  expect(screen.indexOf("› and then this")).toBeGreaterThan(screen.indexOf("the first turn is over"));
}, 20_000);
