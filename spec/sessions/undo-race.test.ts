// Undo against a symlink race: a turn creates d/u<N>.txt and edits d/f.txt; then, while another
// process flips `d` between the folder and a symlink leading out, the turn is undone. 200 tries:
// the files outside with the same names are never removed or overwritten (lib/fs/confined.ts).
// `shiro undo` through the binary: spec/e2e/confined-race.test.ts.
import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openUndoJournal } from "../../lib/sessions/undo/journal.ts";
import { applyUndo, planUndo } from "../../lib/sessions/undo/restore.ts";
import { tempDir } from "../support/cli.ts";
import { removeNow, snapshot, startFlipper } from "../support/race.ts";

const ID = "0193ab2c-0000-7000-8000-0000000000aa";
const TRIES = 200;

describe("undo while a folder flips to a symlink leading out", () => {
  test(`${TRIES} undos: nothing outside is removed or overwritten, and undo still works when the folder is there`, async () => {
    const home = tempDir("shiro-home-");
    const ws = tempDir("shiro-ws-");
    const outside = tempDir("shiro-elsewhere-");
    mkdirSync(join(ws, "d"));
    writeFileSync(join(ws, "d", "f.txt"), "inside 0\n");
    writeFileSync(join(outside, "f.txt"), "OUTSIDE f\n");
    for (let i = 0; i < TRIES; i++) writeFileSync(join(outside, `u${i}.txt`), `OUTSIDE ${i}\n`);
    const before = snapshot(outside);
    const journal = openUndoJournal(home, ID, { root: ws });
    const history: ModelMessage[] = [];
    const flipper = await startFlipper("dir", ws, "d", outside);
    let restoredInPlace = 0;
    let refusedWhileFlipping = 0;
    let tries = 0;
    try {
      // Every fifth undo runs with the folder held in place and must put both files back; the
      // others race the flipper. At least TRIES undos, and on (for up to 20 s) until one racing
      // undo has met the link: a loaded machine can starve the flipper for a while.
      const until = performance.now() + 20_000;
      for (let i = 0; i < TRIES || (refusedWhileFlipping === 0 && performance.now() < until); i++, tries++) {
        const held = i % 5 === 0;
        await flipper.pause(); // the turn itself runs with the folder in place
        writeFileSync(join(ws, "d", "f.txt"), "inside 0\n");
        const recorder = journal.beginTurn({ prompt: `turn ${i}`, historyLength: history.length, todos: [] });
        history.push({ role: "user", content: `turn ${i}` }, { role: "assistant", content: [{ type: "text", text: "done" }] });
        await recorder.before(join(ws, "d", `u${i % TRIES}.txt`));
        writeFileSync(join(ws, "d", `u${i % TRIES}.txt`), `made ${i}\n`);
        await recorder.before(join(ws, "d", "f.txt"));
        writeFileSync(join(ws, "d", "f.txt"), `turn ${i}\n`);
        await recorder.end({ commands: 0 });
        if (!held) await flipper.resume();
        const plan = planUndo(journal, "all", history);
        if (plan.type !== "undo") throw new Error(`no undo plan: ${plan.why}`);
        const outcome = await applyUndo(journal, plan);
        history.length = plan.conversationOf?.historyLength ?? history.length;
        const undone = outcome.failed.length === 0 && plan.files.length === 2;
        if (held) {
          expect(undone).toBe(true);
          expect(readFileSync(join(ws, "d", "f.txt"), "utf8")).toBe("inside 0\n");
          expect(existsSync(join(ws, "d", `u${i % TRIES}.txt`))).toBe(false);
          restoredInPlace++;
          await flipper.resume();
        } else if (!undone) refusedWhileFlipping++;
      }
    } finally {
      await flipper.stop();
    }
    expect(snapshot(outside)).toEqual(before);
    removeNow(home, ws, outside);
    // Both states were met: undone inside when the folder was held there, refused when it led out.
    expect(restoredInPlace).toBe(Math.ceil(tries / 5));
    expect(refusedWhileFlipping).toBeGreaterThan(0);
  }, 120_000);

  test("a folder replaced by a symlink out after the turn: undo touches nothing outside and says what it could not put back", async () => {
    const home = tempDir("shiro-home-");
    const ws = tempDir("shiro-ws-");
    const outside = tempDir("shiro-elsewhere-");
    mkdirSync(join(ws, "d"));
    writeFileSync(join(ws, "d", "notes.txt"), "notes before\n");
    writeFileSync(join(outside, "important.txt"), "OUTSIDE important\n");
    writeFileSync(join(outside, "notes.txt"), "OUTSIDE notes\n");
    const before = snapshot(outside);
    const journal = openUndoJournal(home, ID, { root: ws });
    const recorder = journal.beginTurn({ prompt: "write", historyLength: 0, todos: [] });
    await recorder.before(join(ws, "d", "important.txt"));
    writeFileSync(join(ws, "d", "important.txt"), "made\n");
    await recorder.before(join(ws, "d", "notes.txt"));
    writeFileSync(join(ws, "d", "notes.txt"), "notes after\n");
    await recorder.end({ commands: 1 });
    renameSync(join(ws, "d"), join(ws, "d.old"));
    symlinkSync(outside, join(ws, "d"));
    const history: ModelMessage[] = [{ role: "user", content: "write" }];
    const plan = planUndo(journal, "files", history);
    if (plan.type !== "undo") throw new Error("expected an undo plan");
    const outcome = await applyUndo(journal, plan);
    expect(snapshot(outside)).toEqual(before);
    expect(outcome.failed.map((f) => f.path)).toEqual([join(ws, "d", "notes.txt")]);
    expect(outcome.failed[0]!.why).toContain("outside the workspace");
  });
});
