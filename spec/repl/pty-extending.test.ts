// Skills and custom slash commands in the interactive loop, read off the screen and the requests.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn } from "../support/requests.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();
const write = (path: string, text: string) => (mkdirSync(dirname(path), { recursive: true }), writeFileSync(path, text));

test("/skills lists each skill with its source, the one a later source replaced, and the broken file (also said once at start)", async () => {
  const home = tempDir();
  const cwd = tempDir();
  write(join(home, ".claude/skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: old deploy\n---\nold\n");
  write(join(home, ".shiro-neko/skills/changelog/SKILL.md"), "---\nname: changelog\ndescription: Write a changelog entry\n---\nsteps\n");
  write(join(cwd, ".shiro/skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: Deploy to staging\n---\nsteps\n");
  write(join(cwd, ".shiro/skills/broken/SKILL.md"), "---\nname: [unclosed\n");
  const s = await serve();
  const pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen().split("broken/SKILL.md (project) is not used").length - 1).toBe(1);
  // The project's deploy replaces the user's own: said once, at the start.
  expect(pty.screen().split("skill deploy: this project's .shiro/skills/deploy replaces your own").length - 1).toBe(1);
  pty.line("/skills");
  await pty.waitFor("Looked in, later ones winning by name");
  const screen = pty.screen();
  expect(screen).toMatch(/changelog +\$SHIRO_HOME\/skills · Write a changelog entry/);
  expect(screen).toMatch(/deploy +\.shiro\/skills \(project\) · Deploy to staging/);
  expect(screen).toContain("(deploy from ~/.claude/skills is replaced by the one from .shiro/skills (project))");
  expect(screen).toContain("Not used:\n  skill .shiro/skills/broken/SKILL.md (project) is not used: the front matter has no closing --- line");
  expect(screen).toContain("Looked in, later ones winning by name: ~/.claude/skills, ~/.agents/skills, $SHIRO_HOME/skills, .claude/skills (project)");
}, 20_000);

test("a custom command: Tab completes it, /help lists it, its arguments fill the body, its agent applies to that turn only; a built-in name gets a notice", async () => {
  const cwd = tempDir();
  write(join(cwd, ".shiro/commands/review.md"), "---\ndescription: Review a file for defects\nagent: review\n---\nReview $1, then $2.\n");
  write(join(cwd, ".shiro/commands/clear.md"), "not mine to use");
  const s = await serve({ text: "reviewed it" }, { text: "plain answer" });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("custom command .shiro/commands/clear.md is not used: /clear is a built-in command; rename the file to use it.");
  pty.line("/help");
  await pty.waitFor("Your commands");
  expect(pty.screen()).toMatch(/\/review +Review a file for defects \(\.shiro\/commands\/review\.md\)/);
  await pty.waitForPrompt(2);
  pty.write("/rev" + KEYS.tab);
  await pty.waitForInput("/review");
  pty.write('src/a.ts "the tests"' + KEYS.enter);
  await pty.waitFor("reviewed it");
  expect(pty.screen()).toContain("/review from .shiro/commands/review.md (this turn: agent review)");
  expect(lastUserText(s.requests[0]!.body)).toBe("Review src/a.ts, then the tests.");
  expect(instructionsIn(s.requests[0]!.body)).toContain("Mode: review.");
  await pty.waitForPrompt(3);
  pty.line("and now?");
  await pty.waitFor("plain answer");
  expect(instructionsIn(s.requests[1]!.body)).not.toContain("Mode:");
}, 30_000);

test("a custom command whose file was not used: typing it says why and where, not \"unknown command\"; nothing is sent", async () => {
  const cwd = tempDir();
  write(join(cwd, ".shiro/commands/review.md"), "---\nagent: sloppy\n---\nReview $1.\n");
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain('custom command .shiro/commands/review.md is not used: its agent "sloppy" is not one of');
  pty.line("/review src/a.ts");
  await pty.waitFor("/review was not loaded:");
  const screen = pty.screen().replace(/\s+/g, " ");
  expect(screen).toContain('/review was not loaded: its agent "sloppy" is not one of default, quick, deep, plan, review (.shiro/commands/review.md). To use it, fix the file, then start shiro again.');
  expect(screen).not.toContain("unknown command");
  await pty.waitForPrompt(2);
  expect(s.requests).toHaveLength(0);
}, 20_000);

test("a custom command's turn on a model with no price: /cost names that model, not the session's priced one", async () => {
  const cwd = tempDir();
  write(join(cwd, ".shiro/commands/big.md"), "---\nmodel: unpriced-big-model\n---\nThink hard about $ARGUMENTS.\n");
  const s = await serve({ text: "answered on the session's model", usage: { input: 1000, output: 10 } }, { text: "answered on the big one", usage: { input: 1000, output: 10 } });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("answered on the session's model");
  await pty.waitForPrompt(2);
  pty.line("/big the cache");
  await pty.waitFor("answered on the big one");
  expect(s.requests.map((r) => (r.body as { model?: string }).model)).toEqual(["gpt-5-mini", "unpriced-big-model"]);
  await pty.waitForPrompt(3);
  pty.line("/cost");
  await pty.waitFor("cost: unknown — unpriced-big-model has no price in shiro's table");
  expect(pty.screen()).not.toContain("gpt-5-mini has no price");
}, 20_000);

test("web_fetch asks first, saying it wants to fetch the URL (once); the page reaches the model once allowed", async () => {
  const site = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<main><h2>Release notes</h2><p>Version 2 is out.</p></main>", { headers: { "content-type": "text/html" } }) });
  try {
    const home = tempDir();
    write(join(home, ".shiro-neko/config.json"), JSON.stringify({ webFetch: { allowHosts: [`127.0.0.1:${site.port}`] } }));
    const url = `http://127.0.0.1:${site.port}/notes`;
    const s = await serve({ toolCalls: [{ name: "web_fetch", input: { url } }] }, { text: "version 2" });
    const pty = await start({ baseURL: s.url, home });
    await pty.waitForPrompt(1);
    pty.line("what is new?");
    await pty.waitFor(`web_fetch wants to fetch ${url}`);
    expect(pty.screen()).not.toContain('{"url":'); // the address once, not again as arguments
    await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once"));
    pty.write("y");
    await pty.waitFor("version 2");
    expect(toolOutputsIn(s.requests[1]!.body).join("\n")).toContain("## Release notes\n\nVersion 2 is out.");
  } finally {
    site.stop(true);
  }
}, 20_000);
