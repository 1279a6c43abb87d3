/**
 * Session store figures: save and load of a 5,000-message session (target: load < 150 ms),
 * listing 1,000 sessions, and resolving a prefix among them. Prints a table; nothing is asserted.
 * `bun scripts/bench-sessions.ts`
 */
import type { ModelMessage } from "ai";
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findSession } from "../lib/sessions/find.ts";
import { listSessions } from "../lib/sessions/list.ts";
import { sessionPath } from "../lib/sessions/paths.ts";
import { shortestUniquePrefix } from "../lib/sessions/prefix.ts";
import { listSessionIds, loadSession, saveSession } from "../lib/sessions/store.ts";
import { makeRecord } from "../spec/sessions/support/fixtures.ts";

const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-sessions-")));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = (runs: number, fn: () => void) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
};
const rows: [string, string][] = [];

// 1. One big session: typical tool output, then heavy (4 KB per tool result).
for (const resultBytes of [0, 4096]) {
  const base = makeRecord({ messageCount: 5_000 });
  const record = resultBytes ? { ...base, messages: base.messages.map((m) => (m.role === "tool" ? heavy(m, resultBytes) : m)) } : base;
  const save = time(10, () => saveSession(home, record));
  const mb = statSync(sessionPath(home, record.id)).size / 1024 / 1024;
  const load = time(10, () => {
    if (loadSession(home, record.id).status !== "ok") throw new Error("load failed");
  });
  rows.push([`save 5,000-message session, ${mb.toFixed(1)} MB (median of 10)`, `${save.toFixed(1)} ms (on the autosave timer, not in the step)`]);
  rows.push([`load 5,000-message session, ${mb.toFixed(1)} MB (median of 10)`, `${load.toFixed(1)} ms (target < 150 ms)`]);
}

// 2. A thousand sessions of 200 messages each, in two directories.
{
  const t = Date.now() - 1_000 * 60_000;
  for (let i = 0; i < 1_000; i++) saveSession(home, makeRecord({ at: t + i * 60_000, messageCount: 200, cwd: i % 2 ? "/work/a" : "/work/b" }));
  const ids = listSessionIds(home);
  const all = time(10, () => listSessions(home, { all: true }));
  const cwd = time(10, () => listSessions(home, { cwd: "/work/a", limit: 15 }));
  const find = time(10, () => findSession(home, shortestUniquePrefix(ids[500]!, ids)));
  const exit = time(10, () => shortestUniquePrefix(ids[0]!, listSessionIds(home)));
  const naive = time(3, () => {
    for (const id of ids) loadSession(home, id);
  });
  rows.push(["list 1,000 sessions, --all (median of 10)", `${all.toFixed(1)} ms (reading every file in full: ${naive.toFixed(0)} ms)`]);
  rows.push(["list 1,000 sessions, this directory, last 15", `${cwd.toFixed(1)} ms`]);
  rows.push(["-r <prefix> among 1,000 (resolve + load 200 msgs)", `${find.toFixed(1)} ms`]);
  rows.push(["exit message prefix among 1,000", `${exit.toFixed(1)} ms`]);
}

function heavy(message: ModelMessage, bytes: number): ModelMessage {
  if (message.role !== "tool") return message;
  const filler = "x".repeat(bytes);
  return { ...message, content: message.content.map((part) => (part.type === "tool-result" ? { ...part, output: { type: "text" as const, value: filler } } : part)) };
}

rmSync(home, { recursive: true, force: true });
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`shiro sessions bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, bun ${Bun.version}`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
