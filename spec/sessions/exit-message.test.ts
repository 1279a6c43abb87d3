import { expect, test } from "bun:test";
import { exitMessage, headlessExitLine } from "../../lib/sessions/exit-message.ts";

test("the exit message is exactly the spec's, columns aligned", () => {
  expect(exitMessage({ messageCount: 8, title: "why does the pagination test fail?", idPrefix: "0193ab2c-7f3" })).toBe(
    [
      "Good bye.",
      'Saved 8 messages: "why does the pagination test fail?"',
      "",
      "Resume it with:",
      "  shiro -c                    newest session in this directory",
      "  shiro -r 0193ab2c-7f3       this session by id",
      "",
    ].join("\n"),
  );
});

test("a longer prefix keeps both descriptions in one column", () => {
  const text = exitMessage({ messageCount: 1, title: "hi", idPrefix: "0193ab2c-7f3e-7abc-8def" });
  const lines = text.split("\n");
  expect(lines[1]).toBe('Saved 1 message: "hi"');
  const c = lines[4]!.indexOf("newest");
  const r = lines[5]!.indexOf("this session");
  expect(c).toBe(r);
  expect(lines[5]).toContain("shiro -r 0193ab2c-7f3e-7abc-8def  this session by id");
  expect(exitMessage({ messageCount: 1, title: "hi", idPrefix: "0193ab2c-7f3" }).split("\n")[5]).toBe("  shiro -r 0193ab2c-7f3       this session by id");
});

test("a session with no messages says it was not saved and names no command", () => {
  const text = exitMessage({ messageCount: 0, title: "", idPrefix: "0193ab2c" });
  expect(text).toBe("Good bye.\nNo messages were saved, so there is nothing to resume.\n");
  expect(text).not.toContain("shiro -");
});

test("the headless ending is one line: the session and how to resume it, or that nothing was saved", () => {
  expect(headlessExitLine({ messageCount: 4, idPrefix: "01a230d3-b4d" })).toBe("saved session 01a230d3-b4d · resume with shiro -r 01a230d3-b4d\n");
  expect(headlessExitLine({ messageCount: 0, idPrefix: "01a230d3" })).toBe("nothing was saved, so there is no session to resume\n");
});
