// The session file's writer (lib/sessions/session-file.ts): a save after a step starts from the
// previous file and writes only what changed, yet the file is always one complete, valid JSON
// document, its summary first; a file that is not the one this process wrote is never built on.
import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionPath, sessionsDir } from "../../lib/sessions/paths.ts";
import { readSessionSummary } from "../../lib/sessions/read-summary.ts";
import { summarize, type SessionRecord } from "../../lib/sessions/schema.ts";
import { SESSION_FILE_TAIL } from "../../lib/sessions/serialize.ts";
import { openSessionFile } from "../../lib/sessions/session-file.ts";
import { loadSession } from "../../lib/sessions/store.ts";
import { tempDir } from "../support/cli.ts";
import { makeRecord } from "./support/fixtures.ts";

const step = (i: number, output = `${i}\n`): ModelMessage[] => [
  { role: "assistant", content: [{ type: "text", text: `step ${i} ✓ — ünïcode` }, { type: "tool-call", toolCallId: `c${i}`, toolName: "bash", input: { command: `echo ${i}` } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: `c${i}`, toolName: "bash", output: { type: "text", value: output } }] },
];

/** The file on disk is complete and says exactly what the record says: loaded in full, and by its first line and last bytes as a listing reads it. */
function expectOnDisk(home: string, record: SessionRecord) {
  const path = sessionPath(home, record.id);
  expect(loadSession(home, record.id)).toEqual({ status: "ok", record });
  expect(readFileSync(path, "utf8").endsWith(SESSION_FILE_TAIL)).toBe(true);
  expect(readSessionSummary(path)).toEqual({ status: "ok", summary: summarize(record) });
  expect(readdirSync(sessionsDir(home)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
}

const firstLine = (home: string, id: string) => readFileSync(sessionPath(home, id), "utf8").split("\n")[0]!;

describe("the session file's writer", () => {
  test("saves after steps build on the previous file: after each one the file is complete and equal to the record", async () => {
    const home = tempDir();
    let record = makeRecord({ messageCount: 40 });
    const file = openSessionFile(sessionPath(home, record.id));
    file.saveSync(record);
    expectOnDisk(home, record);
    const width = firstLine(home, record.id).length;
    for (let i = 0; i < 6; i++) {
      record = { ...record, messages: [...record.messages, ...step(i)], outputTokens: record.outputTokens + 1_000_000 * i, notebook: { todos: [{ content: `task ${i}`, status: "pending" }] } };
      expect(await file.saveInBackground(record, { durable: i % 2 === 0, commit: () => true })).toBe(true);
      expectOnDisk(home, record);
    }
    // The header was rewritten in place, at the width the first save gave it.
    expect(firstLine(home, record.id).length).toBe(width);
  });

  test("a step under way replaced by its final messages, the history cut back (/undo), or rewritten (/compact): each file is the record", async () => {
    const home = tempDir();
    const start = makeRecord({ messageCount: 10 });
    const file = openSessionFile(sessionPath(home, start.id));
    await file.saveInBackground(start, { durable: true, commit: () => true });
    const saves: SessionRecord[] = [
      { ...start, messages: [...start.messages, step(1)[0]!] }, // the step's call, under way
      { ...start, messages: [...start.messages, ...step(1, "final")] }, // its final messages in place of it
      { ...start, messages: start.messages.slice(0, 4) }, // undone back to four
      { ...start, messages: [] }, // every turn undone
      { ...start, messages: [{ role: "user", content: "summary of before" }, ...step(2)] }, // rewritten
      { ...start, messages: [{ role: "user", content: "summary of before" }, ...step(2), ...step(3)] },
    ];
    let record = start;
    for (const next of saves) {
      // The history's objects are shared between saves where the session shares them.
      record = { ...next, messages: next.messages.map((m) => record.messages.find((old) => JSON.stringify(old) === JSON.stringify(m)) ?? m) };
      expect(await file.saveInBackground(record, { durable: false, commit: () => true })).toBe(true);
      expectOnDisk(home, record);
    }
  });

  test("a header that outgrows its room is written in full, and the file stays valid", async () => {
    const home = tempDir();
    let record = makeRecord({ messageCount: 6 });
    const file = openSessionFile(sessionPath(home, record.id));
    file.saveSync(record);
    record = { ...record, title: "a much longer title than the first one had, ".repeat(8).trim(), messages: [...record.messages, ...step(1)] };
    await file.saveInBackground(record, { durable: true, commit: () => true });
    expectOnDisk(home, record);
  });

  test("a file changed or damaged under the writer is not built on: the next save writes the record in full", async () => {
    const home = tempDir();
    let record = makeRecord({ messageCount: 20 });
    const file = openSessionFile(sessionPath(home, record.id));
    file.saveSync(record);
    writeFileSync(sessionPath(home, record.id), "{ damaged");
    record = { ...record, messages: [...record.messages, ...step(1)] };
    await file.saveInBackground(record, { durable: true, commit: () => true });
    expectOnDisk(home, record);
  });

  test("a save a newer one made stale is dropped before its rename: the previous file stays, and no temporary file is left", async () => {
    const home = tempDir();
    const record = makeRecord({ messageCount: 20 });
    const file = openSessionFile(sessionPath(home, record.id));
    file.saveSync(record);
    const newer = { ...record, messages: [...record.messages, ...step(1)] };
    expect(await file.saveInBackground(newer, { durable: true, commit: () => false })).toBe(false);
    expectOnDisk(home, record);
    // The next save still builds on the file on disk, which is the one before the dropped save.
    const next = { ...newer, messages: [...newer.messages, ...step(2)] };
    await file.saveInBackground(next, { durable: true, commit: () => true });
    expectOnDisk(home, next);
  });

  test("killed at random moments while it saves step after step, the file is always the previous save or the new one, complete", async () => {
    const home = tempDir();
    for (let kill = 0; kill < 8; kill++) {
      const child = Bun.spawn([process.execPath, join(import.meta.dir, "support", "save-steps.ts"), home], { stdout: "pipe", stderr: "inherit" });
      const reader = child.stdout.getReader();
      const id = new TextDecoder().decode((await reader.read()).value).trim();
      await Bun.sleep(20 + Math.random() * 150);
      child.kill("SIGKILL");
      await child.exited;
      const loaded = loadSession(home, id);
      expect(loaded.status).toBe("ok");
      const messages = (loaded as { record: SessionRecord }).record.messages;
      expect(messages.length).toBeGreaterThanOrEqual(400);
      // Steps are whole: every call has its result.
      expect(messages.length % 2).toBe(0);
      expect(readSessionSummary(sessionPath(home, id))).toMatchObject({ status: "ok", summary: { messageCount: messages.length } });
    }
  }, 60_000);
});
