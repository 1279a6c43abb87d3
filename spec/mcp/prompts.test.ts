import { expect, test } from "bun:test";
import { findPromptCommand, promptArguments, promptHelpLines, type ServerPrompt } from "../../lib/mcp/prompts.ts";

const review: ServerPrompt = {
  server: "docs",
  command: "mcp__docs__review",
  prompt: { name: "review", description: "Review a file", arguments: [{ name: "file", required: true, description: "the file" }, { name: "focus", required: false }] },
};

test("a prompt's arguments: words in the declared order, name=value for any, quotes group words; missing or extra ones get the usage", () => {
  expect(promptArguments(review, ["a.ts"])).toEqual({ args: { file: "a.ts" } });
  expect(promptArguments(review, ["focus=errors", "a.ts"])).toEqual({ args: { focus: "errors", file: "a.ts" } });
  expect(promptArguments(review, ["a.ts", "errors"])).toEqual({ args: { file: "a.ts", focus: "errors" } });
  expect(promptArguments(review, ["x=1"])).toEqual({ args: { file: "x=1" } }); // not a declared name: a word like any other
  expect(promptArguments(review, [])).toEqual({ error: "usage: /mcp__docs__review <file> [focus] (missing file; file: the file)" });
  expect(promptArguments(review, ["a", "b", "c"])).toEqual({ error: 'usage: /mcp__docs__review <file> [focus] (more words than it takes: "c" is left over)' });
});

test("a line names a prompt by its command, in any case; /help lists prompts under their server", () => {
  expect(findPromptCommand("/MCP__docs__Review a.ts  b", [review])).toEqual({ entry: review, words: "a.ts  b" });
  expect(findPromptCommand("/mcp__docs__other", [review])).toBeUndefined();
  expect(findPromptCommand("please /mcp__docs__review", [review])).toBeUndefined();
  expect(promptHelpLines([review])).toEqual(["docs:", "  /mcp__docs__review <file> [focus]  Review a file"]);
});

test("a usage line carries no escape sequence from the server's argument names or descriptions", () => {
  const evil: ServerPrompt = { server: "x", command: "mcp__x__p", prompt: { name: "p", arguments: [{ name: "f\x1b]0;owned\x07", required: true, description: "the\x1b[2J file" }] } };
  const missing = promptArguments(evil, []);
  expect("error" in missing && missing.error).toBe("usage: /mcp__x__p <f> (missing f; f: the file)");
  const extra = promptArguments(evil, ["a", "b\x1b[8m"]);
  expect("error" in extra && extra.error).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
});
