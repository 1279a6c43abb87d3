import { findCompletion } from "../../lib/prompt/complete.ts";
import { describe, expect, test } from "bun:test";
import { closestCommand, commandHelpLines, commandsStartingWith, extraWordsHint, parseInput, SLASH_COMMANDS, unknownCommandHint } from "../../lib/prompt/slash-commands.ts";

describe("parseInput", () => {
  test("a known command with and without arguments", () => {
    expect(parseInput("/help")).toEqual({ type: "command", name: "help", args: "" });
    expect(parseInput("  /model   gpt-5-mini ")).toEqual({ type: "command", name: "model", args: "gpt-5-mini" });
    expect(parseInput("/RESUME 0193")).toEqual({ type: "command", name: "resume", args: "0193" });
  });

  test("ordinary text and a leading path are prompts", () => {
    expect(parseInput("fix the bug")).toEqual({ type: "prompt", text: "fix the bug" });
    expect(parseInput("/usr/bin/env is missing")).toEqual({ type: "prompt", text: "/usr/bin/env is missing" });
  });

  test("an unknown command names the closest one", () => {
    expect(parseInput("/hlep")).toEqual({ type: "unknown", name: "hlep", closest: "help" });
    expect(parseInput("/comapct")).toMatchObject({ type: "unknown", closest: "compact" });
    expect(parseInput("/sess")).toMatchObject({ type: "unknown", closest: "sessions" });
  });
});

test("closestCommand prefers a unique prefix, then edit distance", () => {
  expect(closestCommand("mode1")).toBe("model");
  expect(closestCommand("mod")).toBe("mode");
  expect(closestCommand("exti")).toBe("exit");
  expect(closestCommand("todo")).toBe("todos");
  expect(closestCommand("costs")).toBe("cost");
});

test("a name near no command gets no guess, only the way to the list", () => {
  expect(closestCommand("qux")).toBeUndefined();
  expect(closestCommand("deploy")).toBeUndefined();
  expect(parseInput("/qux")).toEqual({ type: "unknown", name: "qux" });
  expect(unknownCommandHint("qux", undefined)).toBe("unknown command /qux. /help lists them all.");
});

test("the hint is one line with the closest name and the way to the list", () => {
  const hint = unknownCommandHint("hlep", "help");
  expect(hint).toBe("unknown command /hlep. Did you mean /help? (/help lists them all)");
  expect(hint).not.toContain("\n");
});

test("a command that takes no arguments answers words after it with a usage line; one that takes some does not", () => {
  expect(extraWordsHint("cost", "  extra   words ")).toBe('usage: /cost, with nothing after it (not "extra words"); it was not run.');
  expect(extraWordsHint("cost", "")).toBeUndefined();
  expect(extraWordsHint("exit", "now")).toBe('usage: /exit, with nothing after it (not "now"); it was not run.');
  expect(extraWordsHint("clear", "x".repeat(100))).toBe(`usage: /clear, with nothing after it (not "${"x".repeat(39)}…"); it was not run.`);
  for (const command of SLASH_COMMANDS) {
    const hint = extraWordsHint(command.name, "something");
    if (command.args === "") expect(hint).toStartWith(`usage: /${command.name},`);
    else expect(hint).toBeUndefined();
  }
  // The commands that take none, as /help shows them with no argument.
  expect(SLASH_COMMANDS.filter((c) => c.args === "").map((c) => c.name)).toEqual(["help", "todos", "notes", "memory", "cost", "fork", "jobs", "last", "transcript", "save", "clear", "reasoning", "skills", "hooks", "exit"]);
});

test("every command is in /help, with its arguments", () => {
  const help = commandHelpLines().join("\n");
  for (const command of SLASH_COMMANDS) expect(help).toContain(`/${command.name}`);
  expect(help).toContain("/resume [id]");
  expect(help).toContain("/model [id]");
});

test("/help's listing fits its width: descriptions wrap under their own column, or go under each command when narrow", () => {
  const wide = commandHelpLines(98);
  const column = wide[0]!.indexOf("list commands");
  expect(column).toBe("/mode [ask|edits|auto|plan]  ".length); // the longest command with its arguments
  const init = wide.findIndex((row) => row.startsWith("/init "));
  expect(wide[init + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  for (const row of wide) expect(row.length).toBeLessThanOrEqual(98);
  const narrow = commandHelpLines(38);
  expect(narrow.slice(0, 4)).toEqual(["/help", "    list commands and keys", "/todos", "    show the task list"]);
  for (const row of narrow) expect(row.length).toBeLessThanOrEqual(38);
  for (const row of narrow) expect(row.startsWith("/") || row.startsWith("    ")).toBe(true);
});

test("the issue's commands are all in the table", () => {
  const names: string[] = SLASH_COMMANDS.map((c) => c.name).sort();
  expect(names).toEqual(["agent", "clear", "compact", "cost", "exit", "help", "last", "memory", "mode", "model", "notes", "reasoning", "resume", "save", "sessions", "think", "todos", "undo", "diff", "init", "skills", "mcp", "hooks", "goal", "jobs", "kill", "rewind", "fork", "transcript"].sort());
});

test("Tab after /agent and /think offers their choices", () => {
  const where = { root: "/nowhere", cwd: "/nowhere" };
  expect(findCompletion("/agent ", 7, where)?.candidates).toEqual(["default", "quick", "deep", "plan", "review"]);
  expect(findCompletion("/think h", 8, where)?.candidates).toEqual(["high"]);
  expect(findCompletion("/model g", 8, where)).toBeUndefined(); // no list from the server yet
  const listed = { ...where, choices: (command: string) => (command === "model" ? ["gpt-4.1", "gpt-5-mini", "o3"] : []) };
  expect(findCompletion("/model g", 8, listed)?.candidates).toEqual(["gpt-4.1", "gpt-5-mini"]);
  expect(findCompletion("/agent q", 8, listed)?.candidates).toEqual(["quick"]);
  expect(findCompletion("/undo ", 6, where)?.candidates).toEqual(["files", "conversation"]);
  expect(findCompletion("/diff s", 7, where)?.candidates).toEqual(["session"]);
  expect(findCompletion("/mode ", 6, where)?.candidates).toEqual(["ask", "edits", "auto", "plan"]);
  expect(findCompletion("/mode e", 7, where)?.candidates).toEqual(["edits"]);
});

test("commandsStartingWith feeds completion", () => {
  expect(commandsStartingWith("/c")).toEqual(["/compact", "/cost", "/clear"]);
  expect(commandsStartingWith("/")).toHaveLength(SLASH_COMMANDS.length);
  expect(commandsStartingWith("/zz")).toEqual([]);
});
