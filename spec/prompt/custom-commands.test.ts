// Custom slash commands: read from two folders, expanded with their arguments, second to the built-ins.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findCompletion } from "../../lib/prompt/complete.ts";
import { customCommandSources, expandCommand, loadCustomCommands } from "../../lib/prompt/custom-commands.ts";
import { customHelpLines, notLoadedHint, parseInput } from "../../lib/prompt/slash-commands.ts";
import { tempDir } from "../support/cli.ts";

function folders(files: { user?: Record<string, string>; project?: Record<string, string> }) {
  const root = tempDir();
  const shiroHome = tempDir();
  for (const [dir, set] of [[join(shiroHome, "commands"), files.user], [join(root, ".shiro", "commands"), files.project]] as const) {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(set ?? {})) writeFileSync(join(dir, name), text);
  }
  return loadCustomCommands(customCommandSources({ root, shiroHome }));
}

describe("loading", () => {
  test("front matter gives description, agent and model; the project's file wins by name; a built-in name is refused with a notice", () => {
    const set = folders({
      user: { "review.md": "---\ndescription: user review\n---\nReview it.", "fix.md": "Fix $ARGUMENTS" },
      project: {
        "review.md": "---\ndescription: Review a file\nagent: review\nmodel: gpt-5.2\n---\nReview $1 for defects.",
        "help.md": "---\ndescription: mine\n---\nhelp me",
        "Bad Name.md": "x",
        "broken.md": "---\ndescription: x\n",
        "sloppy.md": "---\nagent: sloppy\n---\nbody",
        "notes.txt": "not markdown",
      },
    });
    expect(set.commands).toEqual([
      { name: "fix", description: "Fix $ARGUMENTS", body: "Fix $ARGUMENTS", source: "$SHIRO_HOME/commands/fix.md" },
      { name: "review", description: "Review a file", agent: "review", model: "gpt-5.2", body: "Review $1 for defects.", source: ".shiro/commands/review.md", project: true },
    ]);
    expect(set.problems).toEqual([
      'custom command .shiro/commands/Bad Name.md is not used: its name must be letters, digits, ".", "_" or "-"; rename the file.',
      "custom command .shiro/commands/broken.md is not used: the front matter has no closing --- line",
      "custom command .shiro/commands/help.md is not used: /help is a built-in command; rename the file to use it.",
      'custom command .shiro/commands/sloppy.md is not used: its agent "sloppy" is not one of default, quick, deep, plan, review.',
    ]);
    expect(customHelpLines(set.commands)).toEqual(["/fix     Fix $ARGUMENTS ($SHIRO_HOME/commands/fix.md)", "/review  Review a file (.shiro/commands/review.md)"]);
  });
});

test("a project's description or first line reaches /help without escape sequences or control characters", () => {
  const set = folders({ project: { "a.md": "---\ndescription: Tidy\u001b]0;owned\u0007 up\u001b[2J\n---\nbody", "b.md": "Fix \u001b[8mhidden\u0007 things\nmore" } });
  expect(set.commands.map((c) => c.description)).toEqual(["Tidy up", "Fix hidden things"]);
});

describe("a file that was not used", () => {
  test("typing its name says it was not loaded, why and where, in one line; a built-in or untypable name, or one another file provides, is not listed", () => {
    const set = folders({
      user: { "fix.md": "Fix it", "deploy.md": "" },
      project: {
        "review.md": "---\nagent: sloppy\n---\nReview $1.",
        "fix.md": "---\ndescription: x\n",
        "help.md": "mine",
        "Bad Name.md": "x",
      },
    });
    expect(set.rejected).toEqual([
      { name: "deploy", source: "$SHIRO_HOME/commands/deploy.md", why: "it has no text after the front matter" },
      { name: "review", source: ".shiro/commands/review.md", why: 'its agent "sloppy" is not one of default, quick, deep, plan, review' },
    ]);
    // The user's fix.md is used when the project's is broken: /fix runs it.
    expect(parseInput("/fix", set.commands, set.rejected)).toMatchObject({ type: "custom", command: { source: "$SHIRO_HOME/commands/fix.md" } });
    const parsed = parseInput("/Review src/a.ts", set.commands, set.rejected);
    expect(parsed).toEqual({ type: "not-loaded", command: set.rejected[1]! });
    expect(notLoadedHint(set.rejected[1]!)).toBe(
      '/review was not loaded: its agent "sloppy" is not one of default, quick, deep, plan, review (.shiro/commands/review.md). To use it, fix the file, then start shiro again.',
    );
    expect(parseInput("/help", set.commands, set.rejected)).toMatchObject({ type: "command", name: "help" });
  });
});

describe("expanding", () => {
  test("$ARGUMENTS is the whole line, $1…$9 its words (quotes group), missing ones empty", () => {
    expect(expandCommand({ body: "Review $ARGUMENTS now" }, " src/a.ts src/b.ts ")).toBe("Review src/a.ts src/b.ts now");
    expect(expandCommand({ body: "Compare $1 with $2; ignore $3." }, '"src/a b.ts" lib/c.ts')).toBe("Compare src/a b.ts with lib/c.ts; ignore .");
    expect(expandCommand({ body: "$1$1" }, "x")).toBe("xx");
  });
  test("a body without placeholders gets the arguments after it", () => {
    expect(expandCommand({ body: "Explain this code." }, "src/a.ts")).toBe("Explain this code.\n\nsrc/a.ts");
    expect(expandCommand({ body: "Explain this code." }, "")).toBe("Explain this code.");
  });
});

describe("parsing and completion", () => {
  const set = folders({ project: { "review.md": "Review $ARGUMENTS", "release-notes.md": "Write notes" } });
  test("a custom name parses as custom; built-ins come first; unknown stays unknown", () => {
    expect(parseInput("/Review src/a.ts", set.commands)).toMatchObject({ type: "custom", command: { name: "review" }, args: "src/a.ts" });
    expect(parseInput("/help", set.commands)).toEqual({ type: "command", name: "help", args: "" });
    expect(parseInput("/review src/a.ts")).toMatchObject({ type: "unknown" });
    expect(parseInput("/reviwe", set.commands)).toMatchObject({ type: "unknown", closest: "review" });
    expect(parseInput("/hlep", set.commands)).toMatchObject({ type: "unknown", closest: "help" });
  });
  test("Tab offers custom names after the built-in ones", () => {
    const where = { root: "/nowhere", cwd: "/nowhere", commands: set.commands.map((c) => c.name) };
    expect(findCompletion("/re", 3, where)?.candidates).toEqual(["/rewind", "/resume", "/reasoning", "/release-notes", "/review"]);
    expect(findCompletion("/rev", 4, where)?.candidates).toEqual(["/review"]);
  });
});
