import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeSession, saveSession } from "../../lib/sessions/store.ts";
import { newSessionRecord } from "../../lib/sessions/record.ts";
import { lastTurnChanges, sessionChanges } from "../../lib/sessions/undo/changes.ts";
import { MAX_UNDO_TURNS, openUndoJournal } from "../../lib/sessions/undo/journal.ts";
import { describeTurnChanges } from "../../lib/sessions/undo/report.ts";
import { applyUndo, planUndo, type UndoMode } from "../../lib/sessions/undo/restore.ts";
import { tempDir } from "../support/cli.ts";

const ID = "0193ab2c-0000-7000-8000-000000000001";

function setup() {
  const home = tempDir("shiro-home-");
  const ws = tempDir("shiro-ws-");
  const at = (rel: string) => join(ws, rel);
  const read = (rel: string) => readFileSync(at(rel), "utf8");
  const history: ModelMessage[] = [];
  let journal = openUndoJournal(home, ID, { root: ws });
  /** One turn: the prompt goes into the history, `work` changes files through the recorder. */
  const turn = async (prompt: string, work: (before: (rel: string) => Promise<void>) => void | Promise<void>, commands = 0) => {
    const recorder = journal.beginTurn({ prompt, historyLength: history.length, todos: [{ content: `before ${prompt}`, status: "pending" }] });
    history.push({ role: "user", content: prompt }, { role: "assistant", content: [{ type: "text", text: "done" }] });
    await work((rel) => recorder.before(at(rel)));
    return recorder.end({ commands });
  };
  const undo = async (mode: UndoMode = "all") => {
    const plan = planUndo(journal, mode, history);
    if (plan.type !== "undo") return plan;
    const outcome = await applyUndo(journal, plan);
    if (plan.conversationOf) history.length = plan.conversationOf.historyLength;
    return { plan, outcome };
  };
  const reopen = () => (journal = openUndoJournal(home, ID, { root: ws }));
  return { home, ws, at, read, history, turn, undo, reopen, journal: () => journal };
}

describe("the undo journal", () => {
  test("one turn that edits, creates, moves and deletes goes back whole: files, modes, folders and conversation", async () => {
    const t = setup();
    writeFileSync(t.at("edit.txt"), "one\n");
    chmodSync(t.at("edit.txt"), 0o750);
    writeFileSync(t.at("gone.txt"), "bye\n");
    writeFileSync(t.at("from.txt"), "moving\n");
    const changes = await t.turn("change everything", async (before) => {
      await before("edit.txt");
      writeFileSync(t.at("edit.txt"), "ONE\n");
      chmodSync(t.at("edit.txt"), 0o644);
      await before("new/deep/made.txt");
      mkdirSync(t.at("new/deep"), { recursive: true });
      writeFileSync(t.at("new/deep/made.txt"), "hi\n");
      await before("gone.txt");
      Bun.spawnSync(["rm", t.at("gone.txt")]);
      await before("from.txt");
      await before("to/from.txt");
      mkdirSync(t.at("to"));
      Bun.spawnSync(["mv", t.at("from.txt"), t.at("to/from.txt")]);
    }, 2);
    expect(changes).toEqual({ files: 5, unkept: 0, commands: 2 });
    expect(describeTurnChanges(changes, "/undo")).toBe("5 files changed · /undo to restore · bash ran 2 commands: /undo cannot revert what they may have changed");

    const done = await t.undo();
    if (!("outcome" in done)) throw new Error(done.why);
    expect(done.outcome.done.map((f) => [f.action, f.path.slice(t.ws.length + 1)])).toEqual([
      ["restore", "edit.txt"],
      ["remove", "new/deep/made.txt"],
      ["recreate", "gone.txt"],
      ["recreate", "from.txt"],
      ["remove", "to/from.txt"],
    ]);
    expect(t.read("edit.txt")).toBe("one\n");
    expect(statSync(t.at("edit.txt")).mode & 0o777).toBe(0o750);
    expect(t.read("gone.txt")).toBe("bye\n");
    expect(t.read("from.txt")).toBe("moving\n");
    expect(existsSync(t.at("new"))).toBe(false); // the folders the turn created went with the file
    expect(existsSync(t.at("to"))).toBe(false);
    expect(t.history).toEqual([]);
    expect(done.plan.conversationOf?.todos).toEqual([{ content: "before change everything", status: "pending" }]);
    expect(planUndo(t.journal(), "all", t.history)).toEqual({ type: "nothing", why: "no turn of this session is left to undo" });
  });

  test("repeated undo walks back turn by turn, and survives reopening (a new process after -c)", async () => {
    const t = setup();
    writeFileSync(t.at("a.txt"), "v0\n");
    for (const v of ["v1", "v2", "v3"]) {
      await t.turn(`make ${v}`, async (before) => {
        await before("a.txt");
        writeFileSync(t.at("a.txt"), `${v}\n`);
      });
    }
    await t.undo();
    expect(t.read("a.txt")).toBe("v2\n");
    t.reopen();
    await t.undo();
    expect(t.read("a.txt")).toBe("v1\n");
    expect(t.history.map((m) => m.content)).toEqual(["make v1", [{ type: "text", text: "done" }]]);
  });

  test("files and conversation are two halves, each walked back on its own", async () => {
    const t = setup();
    writeFileSync(t.at("a.txt"), "0\n");
    await t.turn("one", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "1\n")));
    await t.turn("talk only", () => {});
    await t.turn("two", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "2\n")));
    await t.undo("files");
    await t.undo("files"); // skips the turn that changed nothing
    expect(t.read("a.txt")).toBe("0\n");
    expect(t.history).toHaveLength(6); // the conversation is all there
    const back = await t.undo("conversation");
    expect("plan" in back && back.plan.conversationOf?.prompt).toBe("two");
    expect(t.history).toHaveLength(4);
    expect(planUndo(t.journal(), "files", t.history)).toMatchObject({ type: "nothing" });
  });

  test("a file changed after the turn is flagged, so it is not overwritten unasked", async () => {
    const t = setup();
    writeFileSync(t.at("a.txt"), "mine\n");
    await t.turn("edit", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "shiro's\n")));
    writeFileSync(t.at("a.txt"), "edited by hand\n");
    const plan = planUndo(t.journal(), "all", t.history);
    expect(plan).toMatchObject({ type: "undo", files: [{ action: "restore", changedSince: true }] });
  });

  test("the walk stops at a /compact, and at a history rewritten under it", async () => {
    const t = setup();
    await t.turn("before compact", () => {});
    t.journal().markCompact();
    await t.turn("after compact", () => {});
    await t.undo();
    expect(planUndo(t.journal(), "all", t.history)).toMatchObject({ type: "compacted", why: expect.stringContaining("/compact") });
    const u = setup();
    await u.turn("q", () => {});
    u.history.splice(0, u.history.length, { role: "user", content: "summary" });
    expect(planUndo(u.journal(), "all", u.history)).toMatchObject({ type: "compacted", why: expect.stringContaining("rewritten") });
  });

  test(`bounded: the last ${MAX_UNDO_TURNS} turns are kept, and contents nothing refers to are removed`, async () => {
    const t = setup();
    for (let i = 0; i < MAX_UNDO_TURNS + 3; i++) {
      await t.turn(`turn ${i}`, async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), `${i}\n`)));
    }
    const turns = t.journal().entries().filter((e) => e.type === "turn");
    expect(turns).toHaveLength(MAX_UNDO_TURNS);
    // The oldest kept turn's before-state and each kept turn's after-state (a.txt started absent): 21, not 23.
    expect(readdirSync(join(t.journal().dir, "blobs"))).toHaveLength(MAX_UNDO_TURNS + 1);
    for (let i = 0; i < MAX_UNDO_TURNS; i++) await t.undo();
    expect(planUndo(t.journal(), "all", t.history)).toMatchObject({ type: "nothing", why: expect.stringContaining("keeps the last 20 turns") });
  });

  test("a full journal whose next turn cannot be written keeps its oldest turn and that turn's contents", async () => {
    const t = setup();
    for (let i = 0; i < MAX_UNDO_TURNS; i++) await t.turn(`turn ${i}`, async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), `${i}\n`)));
    const blobs = readdirSync(join(t.journal().dir, "blobs")).sort();
    const next = t.journal().beginTurn({ prompt: "one too many", historyLength: t.history.length, todos: [] });
    const manifest = join(t.journal().dir, "journal.json");
    const kept = readFileSync(manifest);
    rmSync(manifest);
    mkdirSync(manifest); // the write fails
    expect(() => next.ready()).toThrow();
    rmSync(manifest, { recursive: true });
    writeFileSync(manifest, kept);
    expect(t.journal().entries().filter((e) => e.type === "turn")).toHaveLength(MAX_UNDO_TURNS);
    expect(readdirSync(join(t.journal().dir, "blobs")).sort()).toEqual(blobs);
    t.reopen();
    expect(t.journal().entries().filter((e) => e.type === "turn").map((e) => (e.type === "turn" ? e.prompt : ""))[0]).toBe("turn 0");
  });

  test("/diff: the last turn's changes from the kept states; the session's against each file's start", async () => {
    const t = setup();
    writeFileSync(t.at("a.txt"), "a0\n");
    await t.turn("first", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "a1\n")));
    await t.turn("second", async (before) => (await before("b.txt"), writeFileSync(t.at("b.txt"), "b1\n")));
    expect(lastTurnChanges(t.journal())?.files).toEqual([{ path: t.at("b.txt"), before: undefined, after: "b1\n" }]);
    expect(sessionChanges(t.journal())).toEqual([
      { path: t.at("a.txt"), before: "a0\n", after: "a1\n" },
      { path: t.at("b.txt"), before: undefined, after: "b1\n" },
    ]);
  });

  test("the journal is removed with its session", async () => {
    const t = setup();
    saveSession(t.home, newSessionRecord({ id: ID, now: new Date(), cwd: t.ws, provider: "openai", model: "gpt-5" }));
    await t.turn("x", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "x\n")));
    expect(existsSync(t.journal().dir)).toBe(true);
    expect(removeSession(t.home, ID)).toBe(true);
    expect(existsSync(t.journal().dir)).toBe(false);
  });

  test("a turn's start reaches the disk at ready(), before anything runs; one that cannot be written leaves the turn out", async () => {
    const t = setup();
    await t.turn("first", async (before) => (await before("a.txt"), writeFileSync(t.at("a.txt"), "1\n")));
    const onDisk = () => openUndoJournal(t.home, ID).entries().map((e) => (e.type === "turn" ? `${e.prompt}${e.ended ? "" : " (running)"}` : e.type));
    const second = t.journal().beginTurn({ prompt: "second", historyLength: 2, todos: [] });
    expect(onDisk()).toEqual(["first"]); // the first request goes out before the disk is waited for
    second.ready();
    expect(onDisk()).toEqual(["first", "second (running)"]); // a crash from here on leaves the turn to undo
    await second.end({ commands: 1 });
    expect(onDisk()).toEqual(["first", "second"]);

    const third = t.journal().beginTurn({ prompt: "third", historyLength: 4, todos: [] });
    const manifest = join(t.journal().dir, "journal.json");
    const kept = readFileSync(manifest);
    rmSync(manifest);
    mkdirSync(manifest); // a directory where the file goes: the write fails
    expect(() => third.ready()).toThrow();
    rmSync(manifest, { recursive: true });
    writeFileSync(manifest, kept);
    expect(t.journal().entries().map((e) => (e.type === "turn" ? e.prompt : e.type))).toEqual(["first", "second"]);
  });
});
