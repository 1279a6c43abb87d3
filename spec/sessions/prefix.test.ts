import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ShiroError } from "../../lib/errors.ts";
import { deleteSession, findSession, resolveSessionId } from "../../lib/sessions/find.ts";
import { sessionPath } from "../../lib/sessions/paths.ts";
import { lastingPrefix, shortestUniquePrefix } from "../../lib/sessions/prefix.ts";
import { loadSession, saveSession } from "../../lib/sessions/store.ts";
import { tempDir } from "../support/cli.ts";
import { makeRecord } from "./support/fixtures.ts";

function usageError(fn: () => unknown): ShiroError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ShiroError);
    expect((error as ShiroError).code).toBe("usage");
    return error as ShiroError;
  }
  throw new Error("expected a usage error");
}

test("a prefix is never shorter than 8 hex digits, even when alone", () => {
  const id = "0193ab2c-7f3e-7abc-8def-0123456789ab";
  expect(shortestUniquePrefix(id, [id])).toBe("0193ab2c");
  expect(shortestUniquePrefix(id, [])).toBe("0193ab2c");
});

test("ids from the same second share their first 8 digits, so the prefix grows past the dash, never ending on it", () => {
  const a = "0193ab2c-7f3e-7abc-8def-0123456789ab";
  const b = "0193ab2c-7f41-7abc-8def-0123456789ab";
  const c = "0193ab2c-1234-7abc-8def-0123456789ab";
  expect(shortestUniquePrefix(a, [a, b, c])).toBe("0193ab2c-7f3");
  expect(shortestUniquePrefix(b, [a, b, c])).toBe("0193ab2c-7f4");
  expect(shortestUniquePrefix(c, [a, b, c])).toBe("0193ab2c-1");
  // Differing right after the first 8: one more digit, with its dash — not "0193ab2c-".
  expect(shortestUniquePrefix(c, [a, c])).toBe("0193ab2c-1");
});

test("real ids made in the same second: every prefix is unique and resolves back", () => {
  const home = tempDir();
  // Well inside one 65.5 s window of the 8-digit timestamp prefix.
  const second = Math.floor(Date.UTC(2026, 10, 29, 12) / 65_536) * 65_536 + 1_000;
  const records = Array.from({ length: 12 }, (_, i) => makeRecord({ at: second + i * 50 }));
  for (const r of records) saveSession(home, r);
  const ids = records.map((r) => r.id);
  const prefixes = ids.map((id) => shortestUniquePrefix(id, ids));
  expect(new Set(prefixes).size).toBe(ids.length);
  for (const [i, prefix] of prefixes.entries()) {
    expect(prefix.replace(/-/g, "").length).toBeGreaterThan(8);
    expect(resolveSessionId(home, prefix)).toBe(ids[i]!);
  }
  // The first 8 alone are shared by all of them: ambiguous.
  const error = usageError(() => resolveSessionId(home, ids[0]!.slice(0, 8)));
  expect(error.message).toContain(`matches 12 sessions`);
  expect(error.message).toContain("and 7 more");
  expect(error.message).toContain("Use a longer prefix");
});

test("the prefix printed to resume a session stays unique as more sessions are saved in the same minute", () => {
  const home = tempDir();
  const start = Math.floor(Date.UTC(2026, 10, 29, 12) / 65_536) * 65_536 + 1_000;
  const first = makeRecord({ at: start });
  saveSession(home, first);
  const printed = lastingPrefix(first.id, [first.id]);
  // The whole millisecond timestamp: the first 12 hex digits, written as the id writes them.
  expect(printed).toBe(first.id.slice(0, 13));
  // Sessions started over the next minute share the first 8 digits but not all 12.
  for (let i = 1; i <= 5; i++) saveSession(home, makeRecord({ at: start + i * 10_000 }));
  expect(resolveSessionId(home, printed)).toBe(first.id);
  // A second session made in the same millisecond needs more: the prefix grows past 12.
  const twin = `${first.id.slice(0, 14)}fff-8000-000000000000`;
  expect(lastingPrefix(first.id, [first.id, twin]).replace(/-/g, "").length).toBeGreaterThan(12);
});

test("resolution: exact id, prefix without dashes or in upper case, and the messages for none and ambiguous", () => {
  const home = tempDir();
  const a = makeRecord({ at: Date.UTC(2026, 0, 1), title: "fix pagination" });
  const b = { ...makeRecord({ at: Date.UTC(2026, 0, 1) }), id: a.id.slice(0, 9) + "ffff" + a.id.slice(13), title: "add tests" };
  saveSession(home, a);
  saveSession(home, b);
  expect(resolveSessionId(home, a.id)).toBe(a.id);
  expect(resolveSessionId(home, b.id.replace(/-/g, "").slice(0, 12).toUpperCase())).toBe(b.id);
  expect(findSession(home, a.id).title).toBe("fix pagination");

  const ambiguous = usageError(() => resolveSessionId(home, a.id.slice(0, 8)));
  expect(ambiguous.message).toContain(`"${a.id.slice(0, 8)}" matches 2 sessions`);
  expect(ambiguous.message).toContain(`${shortestUniquePrefix(a.id, [a.id, b.id])} "fix pagination"`);
  expect(ambiguous.message).toContain(`${shortestUniquePrefix(b.id, [a.id, b.id])} "add tests"`);

  expect(usageError(() => resolveSessionId(home, "deadbeef")).message).toBe('No session matching "deadbeef". Run: shiro sessions --all');
  expect(usageError(() => resolveSessionId(home, "../etc")).message).toContain("is not a session id");
  expect(usageError(() => resolveSessionId(tempDir(), Bun.randomUUIDv7())).message).toContain("No session matching");
});

test("-r on a corrupt session says it is corrupt and where the file is", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  writeFileSync(sessionPath(home, record.id), '{"version":1,"id":"' + record.id + '", "messages": [');
  const error = usageError(() => findSession(home, record.id.slice(0, 13)));
  expect(error.message).toContain(`Session ${record.id} is corrupt`);
  expect(error.message).toContain(sessionPath(home, record.id));
  expect(error.message).toContain("not valid JSON");
});

test("rm by prefix deletes a session, even a corrupt one, but not one another live shiro has open", async () => {
  const home = tempDir();
  const a = makeRecord({ at: Date.UTC(2026, 0, 1) });
  const b = makeRecord({ at: Date.UTC(2026, 5, 1) });
  saveSession(home, a);
  saveSession(home, b);
  writeFileSync(sessionPath(home, a.id), "garbage");
  expect(deleteSession(home, a.id.slice(0, 8))).toBe(a.id);
  expect(usageError(() => deleteSession(home, a.id)).message).toContain("No session matching");

  const holder = Bun.spawn([process.execPath, join(import.meta.dir, "support", "hold-lock.ts"), home, b.id], { stdout: "pipe" });
  try {
    const reader = holder.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    expect(usageError(() => deleteSession(home, b.id)).message).toBe(`Session ${b.id} is open in another shiro (pid ${holder.pid}). Quit that one first, then remove it.`);
    expect(loadSession(home, b.id).status).toBe("ok");
  } finally {
    holder.kill("SIGKILL");
    await holder.exited;
  }
  expect(deleteSession(home, b.id)).toBe(b.id);
});
