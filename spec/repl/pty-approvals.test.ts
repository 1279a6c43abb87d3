import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();
const count = (text: string, part: string) => text.split(part).length - 1;

test("y allows once, a allows the command's first word for the session, n denies and the model is told", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\nthree\n");
  const s = await serve(
    { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "TWO" } }] },
    { toolCalls: [{ name: "bash", input: { command: "printf hi" } }] },
    { toolCalls: [{ name: "bash", input: { command: "printf hi again" } }] },
    { toolCalls: [{ name: "write_file", input: { path: "c.txt", content: "x" } }] },
    { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "one", newString: "ONE" } }] },
    { text: "all done" },
  );
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("change things");

  await pty.waitFor("edit_file wants to edit: a.txt  +1 -1");
  expect(pty.screen()).toContain("    2 -two\n    2 +TWO");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow? y once · a always (every edit_file call) · n deny"));
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n"); // nothing runs before the answer
  pty.write("y");
  await pty.waitFor("allowed once");
  await pty.waitFor("bash wants to run: printf hi");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  await pty.waitUntil("the bash question", () => pty!.cursorLine().includes("a always (bash commands starting with `printf hi`)"));
  pty.write("a");
  await pty.waitUntil("how long it lasts", () => pty!.cursorLine().startsWith("keep it? s (or enter, esc) this session only"));
  pty.write(KEYS.esc); // esc, as the question says, keeps it for this session: nothing is saved
  await pty.waitFor("bash commands starting with `printf hi` will run without asking for the rest of this session");
  await pty.waitFor("→ bash printf hi again"); // covered by the grant: announced, not asked
  await pty.waitFor("write_file wants to write: c.txt (new file)  +1 -0");
  await pty.waitUntil("the write question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write(KEYS.enter); // nothing to add: just deny
  await pty.waitFor("denied; the model is told");
  await pty.waitFor("edit_file wants to edit: a.txt", { count: 2 }); // y was once: the next edit asks again
  await pty.waitUntil("the second edit question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitFor("all done");

  const screen = pty.screen();
  expect(count(screen, " wants to ")).toBe(4);
  expect(toolOutputsIn(s.requests[2]!.body).join("\n")).toContain("hi");
  expect(existsSync(join(cwd, "c.txt"))).toBe(false);
  expect(toolOutputsIn(s.requests[3]!.body).join("\n")).toContain("hi"); // ran without a question
  expect(toolOutputsIn(s.requests[4]!.body).join("\n")).toContain("The user declined this write_file call");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("ONE\nTWO\nthree\n");
}, 20_000);

test("esc at a question denies it and interrupts the turn", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made.txt" } }] }, { text: "carried on after esc" });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("make it");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write("\x1b");
  await pty.waitFor("not run: interrupted");
  await pty.waitForPrompt(2);
  expect(existsSync(join(cwd, "made.txt"))).toBe(false);
  pty.line("again");
  await pty.waitFor("carried on after esc"); // a distinctive answer: a short word like "ok" may be on the screen already
}, 20_000);

test("--yolo runs changing tools without asking", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "y.txt", content: "yes\n" } }] }, { text: "written" });
  const pty = await start({ baseURL: s.url, cwd, args: ["--yolo"] });
  await pty.waitFor("--yolo: edits and commands run without asking");
  await pty.waitForPrompt(1);
  pty.line("write it");
  await pty.waitFor("written");
  expect(pty.screen()).not.toContain(" wants to ");
  expect(pty.screen()).toContain("→ write_file y.txt");
  expect(readFileSync(join(cwd, "y.txt"), "utf8")).toBe("yes\n");
}, 20_000);

test("a wrapped diff line keeps its indentation and marks its continuation rows, in the approval, the write_file preview and /diff", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "b.py"), "def f():\n    return 1\n");
  const comment = "    # a long comment line that is definitely wider than forty columns of terminal";
  const s = await serve(
    { toolCalls: [{ name: "edit_file", input: { path: "b.py", oldString: "def f():\n    return 1", newString: `def f():\n${comment}\n    return 42` } }] },
    { toolCalls: [{ name: "write_file", input: { path: "c.py", content: `${comment}\n` } }] },
    { text: "edited" },
  );
  const pty = await start({ baseURL: s.url, cwd, cols: 40 });
  await pty.waitForPrompt(1);
  pty.line("change it");
  await pty.waitUntil("the question", () => pty.screen().includes("allow?") && pty.screen().includes("n deny"));
  // Each diff line carries its line number (the old file's for a removed line); continuation rows hang under the marker.
  const added = (no: number) => `    ${no} +    # a long comment line that is\n      ↪    definitely wider than forty\n      ↪    columns of terminal\n`;
  expect(pty.screen()).toContain(`    1  def f():\n    2 -    return 1\n${added(2)}    3 +    return 42\n`);
  for (const row of pty.screen().split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
  pty.write("y");
  await pty.waitFor("write_file wants to write");
  await pty.waitUntil("the write question", () => pty.screen().split("write_file wants to write")[1]!.includes("n deny"));
  expect(pty.screen()).toContain(`@@ -0,0 +1,1 @@\n${added(1)}`);
  pty.write("y");
  await pty.waitFor("edited");
  await pty.waitForPrompt(2);
  pty.resize(60);
  // The status line shows what it dropped at 40 columns once shiro has the new width.
  await pty.waitUntil("the width of 60", () => pty.screen().split("\n").at(-1)!.includes("spent"));
  pty.line("/diff");
  await pty.waitFor("+++ b/c.py");
  expect(pty.screen()).toContain(" def f():\n-    return 1\n+    # a long comment line that is definitely wider than\n↪    forty columns of terminal\n+    return 42\n");
}, 30_000);

test("two edits of one file in one step: the second is judged after the first ran, so it fails its check without a question", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "x.txt"), "x\n");
  const s = await serve(
    {
      toolCalls: [
        { name: "edit_file", input: { path: "x.txt", oldString: "x", newString: "w" } },
        { name: "edit_file", input: { path: "x.txt", oldString: "x", newString: "v" } },
      ],
    },
    { text: "parallel done" },
  );
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("edit twice");
  await pty.waitUntil("the first question", () => pty!.cursorLine().startsWith("allow?"));
  expect(pty.screen()).toContain("    1 -x\n    1 +w");
  pty.write("y");
  await pty.waitFor("parallel done");

  const screen = pty.screen();
  expect(count(screen, " wants to ")).toBe(1); // no question about an edit that can no longer apply
  expect(screen).not.toContain("+v");
  const ran = screen.indexOf("✓ edit_file: +1 -1");
  const failed = screen.indexOf("✗ edit_file:");
  expect(ran).toBeGreaterThan(screen.indexOf("allowed once"));
  expect(failed).toBeGreaterThan(ran);
  expect(screen.slice(failed).split("\n")[0]).toContain("not found");
  expect(readFileSync(join(cwd, "x.txt"), "utf8")).toBe("w\n");
  const told = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(told).toContain("not found");
}, 20_000);

test("a preview taller than the screen says its heading again just above the question, so the question never stands alone", async () => {
  const cwd = tempDir("shiro-work-");
  const content = Array.from({ length: 200 }, (_, i) => `line number ${i + 1}`).join("\n") + "\n";
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "big.txt", content } }] }, { text: "written" });
  const pty = await start({ baseURL: s.url, cwd, rows: 30 });
  await pty.waitForPrompt(1);
  pty.line("write a big file");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  const rows = pty.screen().split("\n");
  const question = rows.findIndex((row) => row.startsWith("allow?"));
  expect(rows[question - 1]).toBe("  ↑ write_file wants to write: big.txt (new file)  +200 -0");
  pty.write("n");
  pty.write(KEYS.enter);
  await pty.waitFor("written");
}, 20_000);

test("a prompt queued under a question stays in sight, the queue line and the input with it, and runs after the answer", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "one\n");
  const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "one", newString: "ONE" } }] }, { text: "edited" }, { text: "reply to the queued one" });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("go");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.line("queued prompt");
  await pty.waitFor("queued (1): queued prompt");
  await pty.waitForInput("");
  const rows = pty.screen().split("\n");
  const queued = rows.findIndex((r) => r.startsWith("queued (1): queued prompt"));
  expect(rows.findIndex((r) => r.startsWith("allow?"))).toBeLessThan(queued); // under the question, above the input
  expect(rows.findIndex((r, i) => i > queued && r.startsWith("›"))).toBeGreaterThan(queued);
  expect(s.requests).toHaveLength(1);
  pty.write("y");
  await pty.waitFor("reply to the queued one");
  expect(s.requests).toHaveLength(3);
}, 20_000);

test("a prompt queued before n stays in sight under 'what should shiro do instead?', and runs after it", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch newfile.txt" } }] }, { text: "done" }, { text: "queued answer" });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("make a file");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.line("queued");
  await pty.waitFor("queued (1): queued");
  pty.write("n");
  await pty.waitUntil("the follow-up", () => pty!.screen().includes("what should shiro do instead?"));
  await pty.waitUntil("the queue under it", () => {
    const rows = pty!.screen().split("\n");
    return rows.findIndex((r) => r.startsWith("queued (1): queued")) > rows.findIndex((r) => r.includes("what should shiro do instead?"));
  });
  pty.write(KEYS.enter);
  await pty.waitFor("queued answer");
  expect(existsSync(join(cwd, "newfile.txt"))).toBe(false);
}, 20_000);

test("ctrl-c at a question with a draft typed under it clears the draft; on an empty input it interrupts", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made.txt" } }] }, { text: "carried on after ctrl-c" });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("make it");
  await pty.waitUntil("the question", () => pty!.cursorLine().startsWith("allow?"));
  pty.write("fix this list"); // no y, a or n in it: nothing here answers the question
  await pty.waitForInput("fix this list");
  pty.write(KEYS.ctrlC);
  await pty.waitUntil("the question, the draft gone", () => pty!.cursorLine().startsWith("allow?"));
  expect(pty.screen()).not.toContain("fix this list");
  expect(pty.screen()).not.toContain("interrupted");
  pty.write(KEYS.ctrlC);
  await pty.waitFor("not run: interrupted");
  await pty.waitForPrompt(2);
  expect(existsSync(join(cwd, "made.txt"))).toBe(false);
  pty.line("again");
  await pty.waitFor("carried on after ctrl-c");
}, 20_000);

test("the spinner counts a command's seconds from the answer that let it run, not from when its question went up", async () => {
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch ran.txt; sleep 3" } }] }, { text: "slept" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("run it");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once"));
  await Bun.sleep(4000); // the user reads the command before answering
  pty.write("y");
  await pty.waitFor(/running bash/);
  const row = pty.screen().split("\n").find((r) => r.includes("running bash"))!;
  const seconds = Number(/running bash · (\d+)s/.exec(row)?.[1] ?? 0);
  expect(seconds).toBeLessThan(3);
  await pty.waitFor("slept");
}, 20_000);
