import { expect, test } from "bun:test";
import { parseJson } from "../../lib/text/json-parse.ts";

const reason = (text: string) => {
  const parsed = parseJson(text);
  if (parsed.ok) throw new Error(`parsed: ${text}`);
  return parsed.reason;
};

test("valid JSON parses to its value", () => {
  expect(parseJson('{"model": "x", "n": [1, -2.5e3, true, null, "\\u00e9\\n"]}')).toEqual({ ok: true, value: { model: "x", n: [1, -2500, true, null, "é\n"] } });
});

test("a file cut short after a comma: where it ends, what was expected, and how the line begins", () => {
  expect(reason('{"model": "x",')).toBe('not valid JSON at line 1, column 15: the text ends where a field name in double quotes should be (the line: {"model": "x",)');
});

test("a missing comma between two fields is placed on the line of the second one, counted in characters", () => {
  expect(reason('{\n  "a": "é😀"\n  "b": 2\n}')).toBe('not valid JSON at line 3, column 3: expected "," or "}" (the line: "b": 2)');
  expect(reason('{"a": "é😀" "b": 2}')).toBe('not valid JSON at line 1, column 12: expected "," or "}" (the line: {"a": "é😀" "b": 2})');
});

test("the mistakes people make by hand each get their own words", () => {
  expect(reason("{ model: 1 }")).toStartWith('not valid JSON at line 1, column 3: expected a field name in double quotes or "}"');
  expect(reason('{"a": [1, 2,]}')).toStartWith("not valid JSON at line 1, column 13: expected a value");
  expect(reason('{"a": \'x\'}')).toStartWith("not valid JSON at line 1, column 7: expected a value (strings take double quotes)");
  expect(reason('{"a": "x\n"}')).toStartWith('not valid JSON at line 1, column 9: expected the closing " of the string before the line ends');
  expect(reason('{"a": 1}}')).toStartWith("not valid JSON at line 1, column 9: expected the end of the text after the value");
  expect(reason('{"a": 01}')).toStartWith('not valid JSON at line 1, column 8: expected "," or "}"');
  expect(reason('{"a": "\\q"}')).toStartWith("not valid JSON at line 1, column 9: expected an escape");
  expect(reason("")).toBe("empty, not JSON");
});

test("a long line is quoted around the mistake, not from its far-away beginning", () => {
  const text = `{"a": "${"x".repeat(200)}" "b": 1}`;
  const r = reason(text);
  expect(r).toStartWith("not valid JSON at line 1, column 210: expected");
  expect(r).toEndWith(`(the line: …${"x".repeat(40)}" "b": 1})`);
  expect(r.length).toBeLessThan(160);
});

test("nesting thousands deep is scanned without running out of stack", () => {
  expect(reason("[".repeat(100_000))).toStartWith("not valid JSON at line 1, column 100001: the text ends where a value should be");
});
