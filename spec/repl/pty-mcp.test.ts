import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, usePty, type Pty } from "./pty.ts";

const { serve, start } = usePty();
const DEMO = join(import.meta.dir, "..", "support", "mcp", "demo-server.ts");
const demo = (...flags: string[]) => ({ command: process.execPath, args: [DEMO, ...flags], allow: ["*"] });
const QUESTION = "Trust this file and start them?";

function toolNamesIn(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
}

/** Sends /mcp until its listing matches (servers connect in the background). */
async function mcpShows(pty: Pty, pattern: RegExp, tries = 20): Promise<void> {
  for (let i = 1; ; i++) {
    pty.line("/mcp");
    try {
      await pty.waitFor(pattern, { timeoutMs: 1_000 });
      return;
    } catch (error) {
      if (i >= tries) throw error;
    }
  }
}

test("a project's .mcp.json asks once, showing what it runs; yes is remembered; a changed file asks again", async () => {
  const home = tempDir();
  const cwd = tempDir();
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: demo() } }));
  const s = await serve({ toolCalls: [{ name: "mcp__proj__echo", input: { text: "trusted" } }] }, { text: "the project server answered" });

  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  expect(pty.screen()).toContain(`proj: runs ${process.execPath} ${DEMO}`);
  expect(pty.screen()).toContain("outside the sandbox");
  pty.line("y");
  await pty.waitForPrompt(1);
  await mcpShows(pty, /proj \(stdio, from \.mcp\.json\): connected, 4 tools/);
  // The line is as long as the path to bun, so the terminal may wrap it anywhere.
  expect(pty.screen().replaceAll("\n", "")).toContain('its "allow" list is ignored: its tools ask');
  pty.line("echo it");
  // The file's own allow list is not used: a project's tool asks like any other.
  await pty.waitFor("allow?");
  pty.write("y");
  await pty.waitFor("the project server answered");
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: trusted");
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.exited;
  expect(JSON.parse(readFileSync(join(home, ".shiro-neko", "mcp-trust.json"), "utf8")).projects[cwd].sha256).toMatch(/^[0-9a-f]{64}$/);

  // The same file again: no question.
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen()).not.toContain(QUESTION);
  await mcpShows(pty, /proj \(stdio, from \.mcp\.json\): connected/);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // A changed file is a new question; no leaves it unused.
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: demo("--tools", "2") } }));
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  expect(pty.screen()).toContain("--tools 2");
  pty.line("n");
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("not started: you did not trust it");
  pty.line("/mcp");
  await pty.waitFor("No MCP servers are configured");
}, 60_000);

test("a slow server does not hold up the first prompt; its tools join a later request once it is up", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { slow: demo("--slow-init", "3000") } }));
  const s = await serve({ text: "first answer" }, { text: "second answer" });
  const started = Date.now();
  const pty = await start({ baseURL: s.url, home });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("MCP: starting slow in the background");
  pty.line("/mcp");
  await pty.waitFor("slow (stdio, from config): starting…");
  pty.line("first");
  await pty.waitFor("first answer");
  expect(Date.now() - started).toBeLessThan(3_000 + 2_000); // the answer did not wait for the server…
  expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp__"))).toBe(false); // …and went without its tools
  await mcpShows(pty, /slow \(stdio, from config\): connected, 4 tools/);
  pty.line("second");
  await pty.waitFor("second answer");
  expect(toolNamesIn(s.requests[1]!.body)).toContain("mcp__slow__echo");
}, 40_000);

test("a server that fails to start is reported once in the loop, and /mcp shows why", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { broken: demo("--fail") } }));
  const s = await serve({ text: "still here" });
  const pty = await start({ baseURL: s.url, home });
  await pty.waitForPrompt(1);
  await pty.waitFor('MCP server "broken" did not start');
  pty.line("/mcp");
  await pty.waitFor(/broken \(stdio, from config\): failed: .*missing DEMO_TOKEN/);
  pty.line("hello");
  await pty.waitFor("still here");
  expect(pty.screen().split('MCP server "broken" did not start').length - 1).toBe(1);
}, 30_000);

test("an MCP tool asks like any other by default, naming the server's tool and its arguments once, and y runs it", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  const { allow: _none, ...asking } = demo();
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { demo: asking } }));
  const s = await serve({ text: "ready" }, { toolCalls: [{ name: "mcp__demo__echo", input: { text: "may I" } }] }, { text: "it echoed" });
  const pty = await start({ baseURL: s.url, home });
  await pty.waitForPrompt(1);
  await mcpShows(pty, /demo \(stdio, from config\): connected, 4 tools/);
  pty.line("warm up");
  await pty.waitFor("ready");
  await pty.waitForPrompt(2);
  pty.line("echo something");
  // The server's tool and its arguments, once, in words that fit a call.
  await pty.waitFor('mcp wants to call demo/echo {"text":"may I"}');
  expect(pty.screen()).not.toContain('    {"text":"may I"}');
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once · a always (every mcp__demo__echo call)"));
  pty.write("y");
  await pty.waitFor("it echoed");
  expect(toolOutputsIn(s.requests[2]!.body).join("")).toBe("echo: may I");
}, 40_000);

test("trust covers the workspace script the server runs: a changed script asks again, the question says so", async () => {
  const home = tempDir();
  const cwd = tempDir();
  writeFileSync(join(cwd, "server.ts"), `import ${JSON.stringify(DEMO)};\n`);
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: ["server.ts"] } } }));
  const s = await serve();

  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  expect(pty.screen().replaceAll("\n", "")).toContain("Trusting it also trusts, as they are now, the workspace files they run: server.ts. shiro asks again when one changes (not when a file they load does).");
  pty.line("y");
  await pty.waitForPrompt(1);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // The same file and script: no question.
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen()).not.toContain(QUESTION);
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // The script changed, .mcp.json did not: asked again; no leaves it unstarted.
  writeFileSync(join(cwd, "server.ts"), `import ${JSON.stringify(DEMO)};\nawait Bun.write("/dev/null", "changed");\n`);
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  pty.line("n");
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("not started: you did not trust it");
}, 60_000);
