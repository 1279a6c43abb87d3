import { describe, expect, test } from "bun:test";
import { createKeyDecoder } from "../../cmd/repl/input/keys.ts";
import { editLine, lineOf, moveLine } from "../../cmd/repl/input/line-edit.ts";
import { layoutInput, scrollInput } from "../../cmd/repl/input/input-layout.ts";

describe("key decoding", () => {
  const keys = (...chunks: string[]) => {
    const decoder = createKeyDecoder();
    return chunks.flatMap((chunk) => decoder.feed(chunk));
  };

  test("typed text, enter and control keys", () => {
    expect(keys("hi\r")).toEqual([{ name: "text", text: "hi" }, { name: "enter" }]);
    expect(keys("\x03", "\x04", "\t", "\x7f")).toEqual([{ name: "ctrl-c" }, { name: "ctrl-d" }, { name: "tab" }, { name: "backspace" }]);
  });

  test("a lone ESC is the escape key at once; sequences are arrows", () => {
    expect(keys("\x1b")).toEqual([{ name: "escape" }]);
    expect(keys("\x1b[A\x1b[B\x1bOC\x1b[1;5D\x1b[3~")).toEqual([{ name: "up" }, { name: "down" }, { name: "right" }, { name: "word-left" }, { name: "delete" }]);
  });

  test("shift-tab (ESC [ Z) is one key", () => {
    expect(keys("\x1b[Za")).toEqual([{ name: "shift-tab" }, { name: "text", text: "a" }]);
  });

  test("bracketed paste keeps newlines and spans chunks", () => {
    expect(keys("\x1b[200~line one\r\nline", " two\x1b[201~\r")).toEqual([{ name: "paste", text: "line one\nline two" }, { name: "enter" }]);
  });

  test("unknown sequences are dropped, not typed", () => {
    expect(keys("\x1b[99;99Xa")).toEqual([{ name: "text", text: "a" }]);
  });
});

describe("line editing", () => {
  test("insert, delete and move", () => {
    let line = lineOf("helo");
    line = editLine(line, { name: "left" })!;
    line = editLine(line, { name: "text", text: "l" })!;
    expect(line).toEqual({ text: "hello", cursor: 4 });
    line = editLine(line, { name: "backspace" })!;
    expect(line).toEqual({ text: "helo", cursor: 3 });
    expect(editLine(lineOf("one two three"), { name: "delete-word-back" })).toEqual({ text: "one two ", cursor: 8 });
    expect(editLine({ text: "one two", cursor: 3 }, { name: "kill-to-end" })).toEqual({ text: "one", cursor: 3 });
    expect(editLine({ text: "one two", cursor: 3 }, { name: "kill-to-start" })).toEqual({ text: " two", cursor: 0 });
  });

  test("keys the loop handles itself are not edits", () => {
    expect(editLine(lineOf("x"), { name: "enter" })).toBeUndefined();
    expect(editLine(lineOf("x"), { name: "up" })).toBeUndefined();
  });

  test("up and down move between the lines of a multi-line input, then fall through", () => {
    const line = lineOf("first line\nsecond");
    const up = moveLine(line, "up")!;
    expect(up.cursor).toBe(6);
    expect(moveLine(up, "up")).toBeUndefined();
    expect(moveLine(line, "down")).toBeUndefined();
  });
});

describe("input layout", () => {
  test("wraps by display width and puts the cursor where the text ends", () => {
    const layout = layoutInput("› ", "abcdefghij", 10, 6);
    expect(layout.rows).toEqual(["› abcd", "efghij", ""]);
    expect([layout.cursorRow, layout.cursorCol]).toEqual([2, 0]);
  });

  test("continuation lines are indented under the prompt", () => {
    const layout = layoutInput("› ", "one\ntwo", 4, 20);
    expect(layout.rows).toEqual(["› one", "  two"]);
    expect([layout.cursorRow, layout.cursorCol]).toEqual([1, 2]);
  });

  test("the single-row form scrolls to keep the cursor in view", () => {
    const { row, cursorCol } = scrollInput("› ", "x".repeat(50) + "END", 53, 30);
    expect(row.endsWith("END")).toBe(true);
    expect(cursorCol).toBeLessThan(30);
  });
});
