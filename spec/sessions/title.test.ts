import { expect, test } from "bun:test";
import { TITLE_MAX_CHARS, titleFromMessages, titleFromPrompt } from "../../lib/sessions/title.ts";

test("a short prompt is its own title, on one line", () => {
  expect(titleFromPrompt("why does the pagination test fail?")).toBe("why does the pagination test fail?");
  expect(titleFromPrompt("  fix the bug\n\n  in   pagination\t")).toBe("fix the bug in pagination");
});

test("a long prompt is clipped with an ellipsis, never past the limit", () => {
  const title = titleFromPrompt("refactor ".repeat(20));
  expect(Array.from(title).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
  expect(title.endsWith("…")).toBe(true);
  expect(title.startsWith("refactor refactor")).toBe(true);
  // Code points, not UTF-16 units: an emoji is never split.
  const emoji = titleFromPrompt("🐛".repeat(100), 10);
  expect(Array.from(emoji)).toHaveLength(10);
  expect(emoji).toBe("🐛".repeat(9) + "…");
});

test("the title comes from the first user message with text", () => {
  expect(titleFromMessages([])).toBe("");
  expect(
    titleFromMessages([
      { role: "system", content: "be helpful" },
      { role: "user", content: [{ type: "text", text: "review\nthis diff" }] },
      { role: "user", content: "later prompt" },
    ]),
  ).toBe("review this diff");
});
