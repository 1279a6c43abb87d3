import { expect, test } from "bun:test";
import { breakValue, settingTable } from "../../lib/text/setting-table.ts";

const rows = [
  ["model", "gpt-5-mini", "(from preset openai)"],
  ["baseURL", "https://api.openai.com/v1", "(from preset openai)"],
  ["apiKey", "not set", "(needed for https://api.openai.com/v1: set SHIRO_API_KEY or OPENAI_API_KEY)"],
  ["webFetch", '{"allowHosts":["localhost:8123"],"timeoutMs":30000,"maxBytes":5242880,"readOnlyAgents":false}', "(default)"],
] as const;

test("rows that fit are one line each, the value column as wide as the widest value that fits it", () => {
  expect(settingTable(rows.slice(0, 2), 100)).toEqual(["  model    gpt-5-mini                 (from preset openai)", "  baseURL  https://api.openai.com/v1  (from preset openai)"]);
});

test("a long value wraps inside its column after commas and brackets, a long source inside its own, both aligned", () => {
  expect(settingTable(rows, 80)).toEqual([
    "  model     gpt-5-mini                 (from preset openai)",
    "  baseURL   https://api.openai.com/v1  (from preset openai)",
    "  apiKey    not set                    (needed for https://api.openai.com/v1:",
    "                                       set SHIRO_API_KEY or OPENAI_API_KEY)",
    '  webFetch  {"allowHosts":[            (default)',
    '            "localhost:8123"],',
    '            "timeoutMs":30000,',
    '            "maxBytes":5242880,',
    '            "readOnlyAgents":false}',
  ]);
});

test("no row runs past the width, at any width", () => {
  for (let width = 20; width <= 140; width++) for (const line of settingTable(rows, width)) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(Math.max(width, 14));
});

test("too narrow for three columns, each key has a row of its own with its value and source under it", () => {
  expect(settingTable(rows.slice(0, 1), 30)).toEqual(["  model", "      gpt-5-mini", "      (from preset openai)"]);
});

test("a word longer than the column is cut into pieces of the column's width", () => {
  expect(breakValue("/a/very/long/path/without/spaces", 10)).toEqual(["/a/very/lo", "ng/path/wi", "thout/spac", "es"]);
  expect(breakValue("short", 10)).toEqual(["short"]);
});

test("JSON is not broken inside a string: a bracket or comma in a host or pattern stays put", () => {
  expect(breakValue('["[::1]:8080","a,b","localhost:1"]', 16)).toEqual(['["[::1]:8080",', '"a,b",', '"localhost:1"]']);
});
