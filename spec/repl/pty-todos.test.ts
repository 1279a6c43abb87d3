import { expect, test } from "bun:test";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

const todos = [
  { content: "read the pagination code and find where the last page is counted", status: "completed" },
  { content: "fix the off-by-one in the boundary check of the page count", status: "in_progress" },
  { content: "update the docs", status: "blocked", note: "no write access to the wiki yet" },
];

// At 40 columns (39 for the text, as shiro leaves the last one free) every task wraps; each row
// it continues on starts under its text.
const wrapped = [
  /^tasks #+\.+ 1\/3$/,
  "      1 blocked", // the header is too wide for the row: its count goes under the bar
  "[x] read the pagination code and find",
  "    where the last page is counted",
  "[~] fix the off-by-one in the boundary",
  "    check of the page count",
  "[!] update the docs  (no write access",
  "    to the wiki yet)",
];

const hasList = (rows: string[], from: number) =>
  wrapped.every((row, i) => (typeof row === "string" ? rows[from + i] === row : row.test(rows[from + i] ?? "")));

test("after a turn that changed the task list, the list stays in the transcript, and /todos wraps long tasks under their text", async () => {
  const s = await serve({ toolCalls: [{ name: "todo_write", input: { todos } }] }, { text: "planned" });
  const pty = await start({ baseURL: s.url, cols: 40 });
  await pty.waitForPrompt(1);
  pty.line("plan the fix");
  await pty.waitFor("planned");
  await pty.waitForPrompt(2);
  const rows = pty.screen().split("\n");
  const after = rows.indexOf("planned");
  const at = rows.findIndex((row, i) => i > after && row.startsWith("tasks "));
  expect(at).toBeGreaterThan(after);
  expect(hasList(rows, at)).toBe(true);
  pty.line("/todos");
  await pty.waitFor("› /todos");
  await pty.waitUntil("the listing", () => {
    const now = pty.screen().split("\n");
    const from = now.indexOf("› /todos") + 1;
    return from > 0 && hasList(now, from);
  });
  for (const row of pty.screen().split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
}, 20_000);

test("a turn that did not touch the task list leaves nothing of it behind", async () => {
  const s = await serve({ toolCalls: [{ name: "todo_write", input: { todos } }] }, { text: "planned" }, { text: "just chatting" });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("plan the fix");
  await pty.waitFor("planned");
  await pty.waitForPrompt(2);
  pty.line("how are you?");
  await pty.waitFor("just chatting");
  await pty.waitForPrompt(3);
  expect(pty.screen().match(/^tasks /gm)).toHaveLength(1); // from the first turn only
}, 20_000);
