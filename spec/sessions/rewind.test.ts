import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rewindChoices, rewindTo } from "../../lib/app/rewind.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { MAX_UNDO_TURNS, openUndoJournal } from "../../lib/sessions/undo/journal.ts";
import { tempDir } from "../support/cli.ts";

const ID = "0193ab2c-0000-7000-8000-000000000002";

/** A session of `turns` prompts; prompt i creates `f<i>.txt` (a prompt carries shiro's note, as the conversation writes it). */
async function session(turns: number) {
  const home = tempDir("shiro-home-");
  const ws = tempDir("shiro-ws-");
  const journal = openUndoJournal(home, ID, { root: ws });
  const history: ModelMessage[] = [];
  for (let i = 1; i <= turns; i++) {
    const prompt = `make f${i}`;
    const recorder = journal.beginTurn({ prompt, historyLength: history.length, todos: [{ content: `step ${i}`, status: "pending" }] });
    history.push({ role: "user", content: prompt, providerOptions: { shiro: {} } }, { role: "assistant", content: [{ type: "text", text: "made" }] });
    await recorder.before(join(ws, `f${i}.txt`));
    writeFileSync(join(ws, `f${i}.txt`), `${i}\n`);
    await recorder.end({ commands: i === turns ? 1 : 0 });
  }
  const restored: { length?: number; todos?: readonly Todo[] | undefined } = {};
  const run = (to: number) =>
    rewindTo({
      journal,
      history,
      to,
      mode: "all",
      overwrite: () => true,
      restore: (length, todos) => Object.assign(restored, { length, todos }),
      shown: (path) => path.slice(ws.length + 1),
    });
  return { ws, journal, history, restored, run };
}

test("past the turns the journal keeps, only the conversation goes back and the files are named; within them, files go back across every turn", async () => {
  const turns = MAX_UNDO_TURNS + 2;
  const s = await session(turns);
  const past = await s.run(1);
  expect(past.type).toBe("done");
  if (past.type !== "done") return;
  expect(s.restored).toEqual({ length: 0, todos: undefined });
  expect(past.lines).toContain("  no file was restored: the record of changed files does not reach back to that prompt (shiro keeps the last 20 turns and 64 MB of file contents, and nothing before a /compact)");
  expect(past.lines.find((line) => line.startsWith("  files changed since that stay as they are:"))).toContain("f3.txt, f4.txt");
  expect(past.lines).toContain("The conversation is back to before that prompt; the task list stays as it is (its state then is no longer kept).");
  expect(past.lines).toContain("bash ran 1 command since; a rewind cannot revert what it may have changed.");
  for (let i = 1; i <= turns; i++) expect(existsSync(join(s.ws, `f${i}.txt`))).toBe(true);

  const t = await session(turns);
  const within = await t.run(3);
  if (within.type !== "done") throw new Error(within.type);
  expect(t.restored).toEqual({ length: 4, todos: [{ content: "step 3", status: "pending" }] });
  for (let i = 3; i <= turns; i++) expect(existsSync(join(t.ws, `f${i}.txt`))).toBe(false);
  expect(readFileSync(join(t.ws, "f2.txt"), "utf8")).toBe("2\n");
  expect(within.lines[0]).toBe(`Rewound to before prompt 3, "make f3" (${turns - 2} turns taken back):`);
});

test("the picker lists the prompts newest first with their number, age and files; the journal's taken-back turns are let go", async () => {
  const s = await session(3);
  const choices = rewindChoices(s.journal, s.history, new Date());
  expect(choices.map((c) => c.number)).toEqual([3, 2, 1]);
  expect(choices[0]!.label).toMatch(/^ {2}3 {2}just now +1 file +make f3$/);
  await s.run(2);
  expect(s.journal.entries().filter((e) => e.type === "turn").length).toBe(1);
});
