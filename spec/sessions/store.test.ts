import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions, newestForCwd } from "../../lib/sessions/list.ts";
import { sessionPath, sessionsDir } from "../../lib/sessions/paths.ts";
import { newSessionRecord } from "../../lib/sessions/record.ts";
import { readSessionSummary } from "../../lib/sessions/read-summary.ts";
import { summarize } from "../../lib/sessions/schema.ts";
import { SESSION_FILE_TAIL } from "../../lib/sessions/serialize.ts";
import { listSessionIds, loadSession, removeSession, saveSession } from "../../lib/sessions/store.ts";
import { tempDir } from "../support/cli.ts";
import { makeMessages, makeRecord } from "./support/fixtures.ts";

test("a saved session loads back equal, in $home/sessions/<id>.json with the spec's fields", () => {
  const home = tempDir();
  const record = { ...makeRecord({ messageCount: 8 }), notebook: { todos: [{ content: "add a test", status: "pending" }] } };
  saveSession(home, record);
  expect(sessionsDir(home)).toBe(join(home, "sessions"));
  const path = sessionPath(home, record.id);
  expect(readdirSync(sessionsDir(home))).toEqual([`${record.id}.json`]);
  expect((statSync(path).mode & 0o777).toString(8)).toBe("600");

  const loaded = loadSession(home, record.id);
  expect(loaded).toEqual({ status: "ok", record });

  const raw = JSON.parse(readFileSync(path, "utf8"));
  for (const field of ["id", "createdAt", "updatedAt", "cwd", "provider", "model", "title", "inputTokens", "outputTokens", "costUsd", "notebook", "messages"]) {
    expect(raw).toHaveProperty(field);
  }
  expect(raw.version).toBe(1);
  expect(raw.messages).toHaveLength(8);
  expect(raw.notebook.todos).toEqual([{ content: "add a test", status: "pending" }]);
});

test("the file's first line is the header and it ends with the tail, so listings need not read the messages", () => {
  const home = tempDir();
  const record = makeRecord({ messageCount: 50 });
  saveSession(home, record);
  const text = readFileSync(sessionPath(home, record.id), "utf8");
  const [first] = text.split("\n");
  expect(first!.length).toBeLessThan(600);
  expect(first).toContain('"messageCount":50');
  expect(first).not.toContain('"messages"');
  expect(text.endsWith(SESSION_FILE_TAIL)).toBe(true);
  expect(readSessionSummary(sessionPath(home, record.id))).toEqual({ status: "ok", summary: summarize(record) });
});

test("an unpriced session has no costUsd at all, not 0 and not null", () => {
  const home = tempDir();
  const { costUsd: _, ...record } = makeRecord({ model: "my-local-model" });
  saveSession(home, record);
  const raw = JSON.parse(readFileSync(sessionPath(home, record.id), "utf8"));
  expect("costUsd" in raw).toBe(false);
});

test("the API key never reaches the file: records take explicit fields, and unknown fields are dropped", () => {
  const home = tempDir();
  const key = "sk-test-THIS-MUST-NOT-BE-SAVED-1234567890";
  const settings = { provider: "openai", model: "gpt-5", baseURL: "https://api.openai.com/v1", apiKey: key, api: "responses", maxSteps: 50 };
  const record = newSessionRecord({ id: makeRecord().id, now: new Date(), cwd: "/p", provider: settings.provider, model: settings.model, messages: makeMessages(2) });
  // Even a caller that spreads settings into the record (the types forbid it) cannot leak the key.
  saveSession(home, { ...settings, ...record } as typeof record);
  const text = readFileSync(sessionPath(home, record.id), "utf8");
  expect(text).not.toContain(key);
  expect(text).not.toContain("apiKey");
  expect(text).not.toContain("baseURL");
});

test("an invalid record is refused without touching the disk", () => {
  const home = tempDir();
  const record = makeRecord();
  expect(() => saveSession(home, { ...record, messages: [{ content: "no role" }] as never })).toThrow(/refusing to save/);
  expect(listSessionIds(home)).toEqual([]);
});

test("a field that turns invalid after a good save is still refused, and a good record saves again", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  expect(() => saveSession(home, { ...record, inputTokens: -1 })).toThrow(/refusing to save.*inputTokens/);
  expect(() => saveSession(home, { ...record, updatedAt: "yesterday" })).toThrow(/refusing to save.*updatedAt/);
  expect(() => saveSession(home, { ...record, notebook: null as never })).toThrow(/refusing to save/);
  saveSession(home, { ...record, inputTokens: 5 });
  expect(loadSession(home, record.id)).toMatchObject({ status: "ok", record: { inputTokens: 5 } });
});

test("listing: newest activity first, this directory or all, with a limit", () => {
  const home = tempDir();
  const t = Date.UTC(2026, 10, 1);
  const old = makeRecord({ at: t, cwd: "/a" });
  const mid = makeRecord({ at: t + 1000, cwd: "/b" });
  const recentlyUsed = { ...makeRecord({ at: t + 2000, cwd: "/a" }), updatedAt: new Date(t + 9000).toISOString() };
  const fresh = makeRecord({ at: t + 3000, cwd: "/a" });
  for (const r of [old, mid, recentlyUsed, fresh]) saveSession(home, r);

  expect(listSessions(home, { cwd: "/a" }).sessions.map((s) => s.id)).toEqual([recentlyUsed.id, fresh.id, old.id]);
  expect(listSessions(home, { cwd: "/a", all: true }).sessions).toHaveLength(4);
  expect(listSessions(home).sessions).toHaveLength(4);
  expect(listSessions(home, { cwd: "/b" }).sessions.map((s) => s.id)).toEqual([mid.id]);
  expect(listSessions(home, { all: true, limit: 2 }).sessions.map((s) => s.id)).toEqual([recentlyUsed.id, fresh.id]);
  expect(listSessions(home, { cwd: "/nowhere" }).sessions).toEqual([]);
  expect(listSessions(home).allIds).toHaveLength(4);
  expect(listSessions(tempDir())).toEqual({ sessions: [], warnings: [], allIds: [] });
});

test("-c picks the newest session for exactly this directory, not a sub- or sibling directory's", () => {
  const home = tempDir();
  const t = Date.UTC(2026, 10, 1);
  const mine = makeRecord({ at: t, cwd: "/work/app" });
  saveSession(home, mine);
  saveSession(home, makeRecord({ at: t + 1000, cwd: "/work/app/sub" }));
  saveSession(home, makeRecord({ at: t + 2000, cwd: "/work/app2" }));
  expect(newestForCwd(home, "/work/app")?.id).toBe(mine.id);
  expect(newestForCwd(home, "/work")).toBeUndefined();
});

test("corrupt and unreadable files are skipped with one warning each, naming the file; the rest still list", () => {
  const home = tempDir();
  const t = Date.UTC(2026, 10, 1);
  const good = makeRecord({ at: t });
  const truncated = makeRecord({ at: t + 1000, messageCount: 40 });
  const garbage = makeRecord({ at: t + 2000 });
  const wrongShape = makeRecord({ at: t + 3000 });
  const notUtf8 = makeRecord({ at: t + 4000 });
  for (const r of [good, truncated, garbage, wrongShape, notUtf8]) saveSession(home, r);

  const truncatedPath = sessionPath(home, truncated.id);
  truncateSync(truncatedPath, Math.floor(statSync(truncatedPath).size / 2)); // the header line survives
  writeFileSync(sessionPath(home, garbage.id), "not json at all");
  writeFileSync(sessionPath(home, wrongShape.id), JSON.stringify({ ...wrongShape, messages: "nope" }));
  writeFileSync(sessionPath(home, notUtf8.id), Buffer.from([0xff, 0xfe, 0x00, 0x7b]));
  // Other files in the directory are not sessions and are ignored silently.
  writeFileSync(join(sessionsDir(home), "notes.txt"), "hello");
  writeFileSync(join(sessionsDir(home), `${good.id}.json.corrupt-2026-01-01`), "old");

  const listing = listSessions(home);
  expect(listing.sessions.map((s) => s.id)).toEqual([good.id]);
  expect(listing.warnings).toHaveLength(4);
  for (const warning of listing.warnings) {
    expect(warning.split("\n")).toHaveLength(1);
    expect(warning).toMatch(/^skipped \/.+\.json: .+\. Fix or delete that file; other sessions are unaffected\.$/);
  }
  expect(listing.warnings.join("\n")).toContain(truncatedPath);
  expect(listing.warnings.some((w) => w.includes("messages"))).toBe(true);
  expect(listing.warnings.some((w) => w.includes("not valid UTF-8"))).toBe(true);
  // Skipping never moves or rewrites the file.
  expect(readFileSync(sessionPath(home, garbage.id), "utf8")).toBe("not json at all");
  expect(loadSession(home, garbage.id)).toMatchObject({ status: "corrupt", path: sessionPath(home, garbage.id) });
});

test("a file edited by hand (pretty-printed) is read in full and still listed", () => {
  const home = tempDir();
  const record = makeRecord({ title: "edited" });
  saveSession(home, record);
  writeFileSync(sessionPath(home, record.id), JSON.stringify({ ...record, title: "renamed by hand" }, null, 2));
  expect(listSessions(home).sessions.map((s) => s.title)).toEqual(["renamed by hand"]);
  expect(loadSession(home, record.id)).toMatchObject({ status: "ok", record: { title: "renamed by hand" } });
});

test("a file whose id does not match its name is reported, not listed under the wrong id", () => {
  const home = tempDir();
  const a = makeRecord({ at: Date.UTC(2026, 0, 1) });
  const b = makeRecord({ at: Date.UTC(2026, 0, 2) });
  saveSession(home, a);
  writeFileSync(sessionPath(home, b.id), readFileSync(sessionPath(home, a.id)));
  const listing = listSessions(home);
  expect(listing.sessions.map((s) => s.id)).toEqual([a.id]);
  expect(listing.warnings[0]).toContain("does not match the file name");
  expect(loadSession(home, b.id).status).toBe("corrupt");
});

test("a newer version's file is reported as such", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  writeFileSync(sessionPath(home, record.id), JSON.stringify({ ...record, version: 2 }));
  const result = loadSession(home, record.id);
  expect(result.status === "corrupt" && result.reason).toContain("unsupported version 2");
});

test("a malformed task list does not make the session unreadable (the notebook restores what it can)", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  writeFileSync(sessionPath(home, record.id), JSON.stringify({ ...record, notebook: { todos: "oops" } }));
  expect(loadSession(home, record.id)).toMatchObject({ status: "ok", record: { notebook: { todos: "oops" } } });
  writeFileSync(sessionPath(home, record.id), JSON.stringify({ ...record, notebook: undefined }));
  expect(loadSession(home, record.id)).toMatchObject({ status: "ok", record: { notebook: {} } });
});

test("remove deletes the file; a missing or malformed id is just false", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  expect(removeSession(home, record.id)).toBe(true);
  expect(removeSession(home, record.id)).toBe(false);
  expect(removeSession(home, "../../etc/passwd")).toBe(false);
  expect(loadSession(home, record.id).status).toBe("missing");
  expect(loadSession(home, "../../etc/passwd").status).toBe("missing");
});

test("a header longer than one read (a very long directory name) is still read from the first line", () => {
  const home = tempDir();
  const cwd = "/" + "deep/".repeat(3000) + "project\nwith a newline";
  const record = makeRecord({ cwd });
  saveSession(home, record);
  expect(readSessionSummary(sessionPath(home, record.id))).toEqual({ status: "ok", summary: summarize(record) });
  expect(listSessions(home, { cwd }).sessions.map((s) => s.id)).toEqual([record.id]);
});

test("contract: a listing trusts the header of a complete file; damage inside the messages is found on load", () => {
  const home = tempDir();
  const record = makeRecord({ cwd: "/" + "long/".repeat(2000) });
  saveSession(home, record);
  const path = sessionPath(home, record.id);
  const text = readFileSync(path, "utf8");
  const at = text.indexOf('"messages":[') + 12;
  writeFileSync(path, text.slice(0, at) + "#" + text.slice(at + 1)); // same length, same ends
  expect(readSessionSummary(path)).toEqual({ status: "ok", summary: summarize(record) }); // proves the fast path
  expect(loadSession(home, record.id)).toMatchObject({ status: "corrupt", path });
});
