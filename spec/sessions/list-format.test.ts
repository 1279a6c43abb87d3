import { expect, test } from "bun:test";
import { formatAge, formatSessionTable, sessionJson, sessionRows } from "../../lib/sessions/list-format.ts";
import { summarize } from "../../lib/sessions/schema.ts";
import { makeRecord } from "./support/fixtures.ts";

const now = new Date(Date.UTC(2026, 10, 29, 12, 0, 0));
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

test("ages read 'just now', minutes, hours, days", () => {
  expect(formatAge(ago(5_000), now)).toBe("just now");
  expect(formatAge(ago(3 * 60_000), now)).toBe("3m ago");
  expect(formatAge(ago(2 * 3_600_000 + 5), now)).toBe("2h ago");
  expect(formatAge(ago(5 * 86_400_000), now)).toBe("5d ago");
  expect(formatAge(ago(-60_000), now)).toBe("just now"); // clock skew
});

test("rows show a unique prefix, age, title, message count and directory, aligned", () => {
  const a = { ...makeRecord({ at: now.getTime() - 180_000, messageCount: 8, cwd: "/home/you/project" }), title: "why does the pagination test fail?", updatedAt: ago(180_000) };
  const b = { ...makeRecord({ at: now.getTime() - 7_200_000, messageCount: 1, cwd: "/srv/other" }), title: "", updatedAt: ago(7_200_000) };
  const rows = sessionRows([summarize(a), summarize(b)], { allIds: [a.id, b.id], now });
  expect(rows[0]).toEqual({ prefix: a.id.slice(0, 8), age: "3m ago", title: "why does the pagination test fail?", messages: 8, cwd: "/home/you/project" });
  expect(rows[1]!.title).toBe("(untitled)");
  const table = formatSessionTable(rows, { userHome: "/home/you" }).split("\n");
  expect(table[0]).toBe(`${a.id.slice(0, 8)}  3m ago  why does the pagination test fail?  8 msgs  ~/project`);
  expect(table[1]).toBe(`${b.id.slice(0, 8)}  2h ago  (untitled)                          1 msg   /srv/other`);
  expect(formatSessionTable(rows, { showCwd: false }).split("\n")[0]).toBe(`${a.id.slice(0, 8)}  3m ago  why does the pagination test fail?  8 msgs`);
  expect(formatSessionTable([])).toBe("");
});

test("the session open now ends its row with a mark; without one no row is marked", () => {
  const a = { ...makeRecord({ at: now.getTime() - 180_000, messageCount: 8, cwd: "/w" }), title: "first", updatedAt: ago(180_000) };
  const b = { ...makeRecord({ at: now.getTime() - 60_000, messageCount: 2, cwd: "/w" }), title: "second", updatedAt: ago(60_000) };
  const ids = { allIds: [a.id, b.id], now };
  const marked = formatSessionTable(sessionRows([summarize(b), summarize(a)], { ...ids, current: b.id }), { showCwd: false }).split("\n");
  expect(marked).toEqual([`${b.id.slice(0, 8)}  1m ago  second  2 msgs  (this session)`, `${a.id.slice(0, 8)}  3m ago  first   8 msgs`]);
  expect(formatSessionTable(sessionRows([summarize(b), summarize(a)], ids), { showCwd: false })).not.toContain("this session");
});

test("a session whose newest prompt got no answer is marked in a column of its own; the others' rows leave it blank", () => {
  const failed = { ...makeRecord({ at: now.getTime() - 60_000, messageCount: 1, cwd: "/w" }), title: "hi", updatedAt: ago(60_000), outcome: "no-answer" as const };
  const later = { ...makeRecord({ at: now.getTime() - 120_000, messageCount: 6, cwd: "/w" }), title: "fix it", updatedAt: ago(120_000), outcome: "last-turn-failed" as const };
  const fine = { ...makeRecord({ at: now.getTime() - 180_000, messageCount: 8, cwd: "/w" }), title: "answered", updatedAt: ago(180_000) };
  const rows = sessionRows([failed, later, fine].map(summarize), { allIds: [failed.id, later.id, fine.id], now });
  expect(formatSessionTable(rows, { showCwd: false }).split("\n")).toEqual([
    `${failed.id.slice(0, 8)}  1m ago  hi        1 msg   failed (no answer)`,
    `${later.id.slice(0, 8)}  2m ago  fix it    6 msgs  last turn failed`,
    `${fine.id.slice(0, 8)}  3m ago  answered  8 msgs`,
  ]);
  expect(formatSessionTable(rows, {}).split("\n")[2]).toBe(`${fine.id.slice(0, 8)}  3m ago  answered  8 msgs                      /w`);
  expect(sessionJson(summarize(failed)).outcome).toBe("no-answer");
});

test("the --json shape has every field, with null for what is not known", () => {
  const { costUsd: _, ...unpriced } = makeRecord({ model: "local" });
  const json = sessionJson(summarize(unpriced));
  expect(Object.keys(json).sort()).toEqual(["cachedInputTokens", "costUsd", "createdAt", "cwd", "forkedFrom", "id", "inputTokens", "messageCount", "model", "outcome", "outputTokens", "provider", "title", "updatedAt"]);
  expect(json.costUsd).toBeNull();
  expect(json.outcome).toBeNull();
  expect(json.cachedInputTokens).toBeNull();
  expect(json.forkedFrom).toBeNull();
  expect(json.messageCount).toBe(4);
});

test("--json gives the cached input tokens when the provider reported some, and the cost without float noise", () => {
  const json = sessionJson(summarize({ ...makeRecord({}), cachedInputTokens: 2816, costUsd: 0.0015639999999999999 }));
  expect(json.cachedInputTokens).toBe(2816);
  expect(json.costUsd).toBe(0.001564);
});

test("sessions made within a minute of each other show ids of one length, each still unique", () => {
  const ids = ["01a233dd-c001-7000-8000-000000000001", "01a233dd-1201-7000-8000-000000000002", "01a233dd-1299-7000-8000-000000000003", "01a233de-0001-7000-8000-000000000004"];
  const records = ids.map((id, i) => ({ ...makeRecord({ at: now.getTime() - i * 1000 }), id, updatedAt: ago(i * 1000) }));
  const rows = sessionRows(records.map(summarize), { allIds: ids, now });
  // Two need twelve characters to be told apart, so every row gets twelve.
  expect(rows.map((r) => r.prefix)).toEqual(["01a233dd-c00", "01a233dd-120", "01a233dd-129", "01a233de-000"]);
  for (const row of rows) expect(ids.filter((id) => id.startsWith(row.prefix))).toHaveLength(1);
});
