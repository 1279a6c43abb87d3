import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { GUIDE_TEXT } from "../support/mcp/library-server.ts";
import { STAND_IN_BROWSER, startOAuthMcpServer } from "../support/mcp/oauth-server.ts";
import { KEYS, usePty, userTexts, type Pty } from "./pty.ts";

const { serve, start } = usePty();
const LIBRARY = join(import.meta.dir, "..", "support", "mcp", "library-server.ts");
const BROWSER = STAND_IN_BROWSER;

function homeWith(mcpServers: unknown): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers }));
  return home;
}

function toolNamesIn(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
}

/** Sends /mcp until its listing matches (servers connect in the background). */
async function mcpShows(pty: Pty, pattern: RegExp, tries = 20, count = 1): Promise<void> {
  for (let i = 1; ; i++) {
    pty.line("/mcp");
    try {
      await pty.waitFor(pattern, { timeoutMs: 1_000, count });
      return;
    } catch (error) {
      if (i >= tries) throw error;
    }
  }
}

test("in the loop, Tab completes @server: and the server's URIs; the resource is attached to the prompt, a binary one as its type and size", async () => {
  const s = await serve({ text: "got the guide" });
  const pty = await start({ baseURL: s.url, home: homeWith({ library: { command: process.execPath, args: [LIBRARY] } }) });
  await pty.waitForPrompt(1);
  await mcpShows(pty, /library \(stdio, from config\): connected, 1 tool/);
  pty.write("read @lib");
  pty.write(KEYS.tab);
  await pty.waitForInput("read @library:");
  pty.write("lib://g");
  pty.write(KEYS.tab);
  await pty.waitForInput("read @library:lib://guide ");
  pty.line("and @library:lib://logo.png");
  await pty.waitFor("got the guide");
  expect(pty.screen()).toContain("attached library:lib://guide (text/markdown, 3 lines)");
  expect(pty.screen()).toContain("attached library:lib://logo.png (image/png, 38 bytes, binary: its type and size only)");
  const sent = userTexts(s.requests[0]!.body).join("\n");
  expect(sent).toContain("read @library:lib://guide and @library:lib://logo.png");
  expect(sent).toContain(`<attached path="library:lib://guide" kind="mcp-resource">\n${GUIDE_TEXT}\n</attached>`);
  expect(sent).toContain("[binary resource lib://logo.png (image/png, 38 bytes); its bytes are not sent, only this note]");
}, 40_000);

test("in the loop, a server's prompts are listed in /help under the server, complete with Tab, and run as slash commands; a missing argument gets the usage", async () => {
  const s = await serve({ text: "reviewed it" });
  const pty = await start({ baseURL: s.url, home: homeWith({ library: { command: process.execPath, args: [LIBRARY] } }) });
  await pty.waitForPrompt(1);
  await mcpShows(pty, /library \(stdio, from config\): connected/);
  pty.line("/help");
  await pty.waitFor("MCP prompts (by server");
  const help = pty.screen().replaceAll("\n", " ");
  expect(help).toMatch(/library:\s+\/mcp__library__review <file> \[focus\]\s+Review one file for defects/);
  expect(help).toMatch(/\/mcp__library__briefing\s+Brief the model on the library/);

  pty.line("/mcp__library__review");
  await pty.waitFor("usage: /mcp__library__review <file> [focus] (missing file; file: the file to review)");
  pty.write("/mcp__library__re");
  pty.write(KEYS.tab);
  await pty.waitForInput("/mcp__library__review ");
  pty.line("src/pager.ts focus=errors");
  await pty.waitFor("reviewed it");
  expect(pty.screen()).toContain('/mcp__library__review from the MCP server "library"');
  expect(userTexts(s.requests[0]!.body).join("\n")).toContain("Review src/pager.ts for defects. Look first at errors.");
}, 40_000);

test("/mcp login signs in inside the loop (the browser opened, the URL printed), the server connects and its tools join the next request; /mcp logout forgets it", async () => {
  const oauth = startOAuthMcpServer();
  try {
    const home = homeWith({ conf: { url: oauth.url, allow: ["*"] } });
    const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "signed in the loop" } }] }, { text: "done" });
    const pty = await start({ baseURL: s.url, home, env: { BROWSER } });
    await pty.waitForPrompt(1);
    await pty.waitFor('MCP server "conf" did not start: it asks you to sign in: run /mcp login conf.');
    await mcpShows(pty, /conf \(remote, from config\): failed: it asks you to sign in: run \/mcp login conf/);
    pty.line("/mcp login conf");
    await pty.waitFor("open this address in your browser");
    await pty.waitFor(/Signed in to "conf"; connected, 4 tools, offered from the next request on\./);
    expect(pty.screen().replaceAll("\n", "")).toContain(`${oauth.url.replace("/mcp", "")}/authorize?`);
    await mcpShows(pty, /conf \(http, from config\): connected, signed in, 4 tools/);
    pty.line("use conf");
    await pty.waitFor("done");
    expect(toolNamesIn(s.requests[0]!.body)).toContain("mcp__conf__echo");
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: signed in the loop");

    // A token past its lifetime shows as such, with the refresh that will replace it.
    const kept = join(home, ".shiro-neko", "mcp-oauth", "conf.json");
    writeFileSync(kept, JSON.stringify({ ...JSON.parse(readFileSync(kept, "utf8")), tokensAt: Date.now() - 2 * 3_600_000 }));
    await mcpShows(pty, /conf \(http, from config\): connected, signed in, 4 tools \(token expired, refreshed at the next request\)/);

    pty.line("/mcp logout conf");
    await pty.waitFor('Signed out of "conf": its tokens are forgotten.');
    // What the server's discovery found may be kept again (the reconnection asked); the tokens are not.
    const file = join(home, ".shiro-neko", "mcp-oauth", "conf.json");
    expect(existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).tokens : undefined).toBeUndefined();
    // Shown again after the sign-out (the screen still holds the lines from before the sign-in).
    const before = pty.screen().split("conf (remote, from config): failed: it asks you to sign in: run /mcp login conf").length - 1;
    await mcpShows(pty, /conf \(remote, from config\): failed: it asks you to sign in: run \/mcp login conf/, 20, before + 1);
  } finally {
    oauth.stop();
  }
}, 60_000);

test("/mcp login waits for the browser without holding the loop: typing goes on, esc stops the wait", async () => {
  const oauth = startOAuthMcpServer();
  try {
    const s = await serve();
    // A browser that never comes back.
    const pty = await start({ baseURL: s.url, home: homeWith({ conf: { url: oauth.url } }), env: { BROWSER: "true" } });
    await pty.waitForPrompt(1);
    pty.line("/mcp login conf");
    await pty.waitFor("Waiting for the browser to come back (esc stops)");
    pty.write("typed meanwhile");
    await pty.waitUntil("the typed text in the input", () => pty.cursorLine().includes("typed meanwhile"));
    pty.write(KEYS.esc);
    await pty.waitFor('Sign-in to "conf" stopped.');
    expect(oauth.log.token).toHaveLength(0);
  } finally {
    oauth.stop();
  }
}, 40_000);

test("in the loop, a server that becomes ready during a turn has its tools in that turn's next request", async () => {
  const DEMO = join(import.meta.dir, "..", "support", "mcp", "demo-server.ts");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "sleep 4" } }] },
    { toolCalls: [{ name: "mcp__slow__echo", input: { text: "joined mid-turn" } }] },
    { text: "used it" },
  );
  const pty = await start({ baseURL: s.url, args: ["--yolo"], home: homeWith({ slow: { command: process.execPath, args: [DEMO, "--slow-init", "2500"], allow: ["*"] } }) });
  await pty.waitForPrompt(1);
  pty.line("wait, then use slow");
  await pty.waitFor("used it");
  expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp__"))).toBe(false);
  expect(toolNamesIn(s.requests[1]!.body)).toContain("mcp__slow__echo");
  expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toBe("echo: joined mid-turn");
}, 40_000);
