import { describe, expect, test } from "bun:test";
import { createKeyDecoder } from "../../cmd/repl/input/keys.ts";
import { editLine, lineOf, moveLine } from "../../cmd/repl/input/line-edit.ts";
import { layoutInput, moveRow, scrollInput } from "../../cmd/repl/input/input-layout.ts";

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

  test("the cursor, backspace and delete take a visible character whole, however many code points it has", () => {
    const keys = (line: ReturnType<typeof lineOf>, ...names: ("left" | "right" | "backspace" | "delete" | "word-left" | "word-right")[]) =>
      names.reduce((l, name) => editLine(l, { name })!, line);
    const typed = (line: ReturnType<typeof lineOf>, text: string) => editLine(line, { name: "text", text })!;
    expect(typed(keys(lineOf("A👍🏽B"), "left", "left"), "Z").text).toBe("AZ👍🏽B");
    expect(keys(lineOf("ab👍🏽"), "backspace")).toEqual({ text: "ab", cursor: 2 });
    expect(keys(lineOf("x👨‍👩‍👧"), "backspace")).toEqual({ text: "x", cursor: 1 });
    expect(keys({ text: "👨‍👩‍👧y", cursor: 0 }, "delete")).toEqual({ text: "y", cursor: 0 });
    expect(keys({ text: "🇯🇵🇫🇷", cursor: 0 }, "right").cursor).toBe(4); // a flag is two regional indicators
    expect(keys(lineOf("🇯🇵🇫🇷"), "backspace").text).toBe("🇯🇵");
    expect(keys(lineOf("cafe\u0301!"), "left", "backspace")).toEqual({ text: "caf!", cursor: 3 }); // e and its accent go together
    expect(keys(lineOf("中文👍🏽字"), "left", "left").cursor).toBe(2);
    // word moves stop at the same places, and never inside a cluster
    expect(keys(lineOf("say 👨‍👩‍👧hi there"), "word-left", "word-left").cursor).toBe(4);
    expect(keys({ text: "say 👨‍👩‍👧hi there", cursor: 0 }, "word-right", "word-right").cursor).toBe("say 👨‍👩‍👧hi".length);
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

  test("up and down keep the column on screen: a wide character counts twice, and the cursor never lands inside a cluster", () => {
    const line = { text: "中文字\nabcdef", cursor: "中文字\nabcd".length };
    expect(moveLine(line, "up")!.cursor).toBe(2); // column 4: after 文
    const back = { text: "👨‍👩‍👧x\nabc", cursor: "👨‍👩‍👧x\na".length };
    expect(moveLine(back, "up")!.cursor).toBe(0); // column 1 is inside the emoji's two columns: before it
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

  test("a character of several code points takes its width on screen once", () => {
    expect(layoutInput("› ", "中👍🏽x", "中👍🏽".length, 40).cursorCol).toBe(6);
    expect(layoutInput("› ", "👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧👨‍👩‍👧".length, 40).cursorCol).toBe(6);
    expect(layoutInput("› ", "👍🏽👍🏽👍🏽", 0, 6).rows).toEqual(["› 👍🏽👍🏽", "👍🏽"]);
    expect(scrollInput("› ", "a👍🏽b", "a👍🏽".length, 40).cursorCol).toBe(5);
  });

  test("Up and Down go to the row above or under as drawn, wrapped or not, at the same column", () => {
    // "› abcd" / "efghij" / "kl" at 6 columns; the cursor after "h" (row 1, column 3).
    const text = "abcdefghijkl";
    expect(moveRow("› ", text, 7, 6, "up")).toBe(1); // column 3 of "› abcd": after "a"
    expect(moveRow("› ", text, 7, 6, "down")).toBe(12); // "kl" is shorter: its end
    expect(moveRow("› ", text, 1, 6, "up")).toBeUndefined(); // the first row: the history
    expect(moveRow("› ", text, 11, 6, "down")).toBeUndefined(); // the last row: the history
    // From the empty row after a full one (the cursor at the text's end), up to its start.
    expect(moveRow("› ", "abcdefghijklmnop", 16, 6, "up")).toBe(10);
    // A line of the text under a wrapped one: "  xy" column 4 → the end of "efgh", the line's end.
    expect(moveRow("› ", "abcdefgh\nxy", 11, 6, "up")).toBe(8);
    // The cursor is never past a row's last column, so it never lands at the end of a full row
    // (drawn at the start of the next): up from column 5 is before "j", the row's last character.
    expect(moveRow("› ", "abcdefghijklmnop", 15, 6, "up")).toBe(9);
  });

  test("Up and Down never land inside a wide or composed character", () => {
    // "› 中文中" / "ab" at 8 columns: from column 1 of "ab", up lands before 中 (column 2 is its start).
    expect(moveRow("› ", "中文中ab", "中文中a".length, 8, "up")).toBe(0);
    // From column 5 of a row of ASCII, up into "› 👍🏽👍🏽…" lands before the emoji covering column 5.
    const emoji = "👍🏽👍🏽👍🏽";
    expect(moveRow("› ", emoji + "\nabcdef", emoji.length + 1 + 3, 40, "up")).toBe("👍🏽".length);
  });

  test("the single-row form scrolls to keep the cursor in view", () => {
    const { row, cursorCol } = scrollInput("› ", "x".repeat(50) + "END", 53, 30);
    expect(row.endsWith("END")).toBe(true);
    expect(cursorCol).toBeLessThan(30);
  });
});
