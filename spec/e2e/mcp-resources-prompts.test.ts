import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { GUIDE_TEXT, startHttpLibraryServer } from "../support/mcp/library-server.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const LIBRARY = join(import.meta.dir, "..", "support", "mcp", "library-server.ts");
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The text of every user message of a request, on either wire. */
function userTextIn(body: any): string {
  const items = Array.isArray(body.input) ? body.input : body.messages;
  return items
    .filter((m: any) => m.role === "user")
    .map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

const TRANSPORTS = [
  { transport: "stdio", entry: () => ({ command: process.execPath, args: [LIBRARY] }) },
  {
    transport: "streamable HTTP",
    entry: () => {
      const http = startHttpLibraryServer();
      stops.push(http.stop);
      return { url: http.url };
    },
  },
] as const;

function homeWith(entry: unknown): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { library: entry } }));
  return home;
}

for (const { wire, flags } of WIRES) {
  for (const { transport, entry } of TRANSPORTS) {
    describe(`MCP resources and prompts, ${transport} server, ${wire} wire`, () => {
      test("@server:uri attaches a text resource whole and a binary one as its type and size; the prompt stays as typed", async () => {
        const home = homeWith(entry());
        const s = await serve({ text: "read them" });
        const run = await runShiro(["-p", "summarize @library:lib://guide and @library:lib://logo.png.", ...flags], { baseURL: s.url, home });
        expect(run.code).toBe(0);
        const sent = userTextIn(s.requests[0]!.body);
        expect(sent).toContain("summarize @library:lib://guide and @library:lib://logo.png.");
        expect(sent).toContain(`<attached path="library:lib://guide" kind="mcp-resource">\n${GUIDE_TEXT}\n</attached>`);
        expect(sent).toContain('<attached path="library:lib://logo.png" kind="mcp-resource">\n[binary resource lib://logo.png (image/png, 38 bytes); its bytes are not sent, only this note]\n</attached>');
        expect(sent).not.toContain("PNGDATA");
        expect(run.stderr).toContain("attached library:lib://guide (text/markdown, 3 lines)");
        expect(run.stderr).toContain("attached library:lib://logo.png (image/png, 38 bytes, binary: its type and size only)");
        expect(run.stderr).not.toContain("names no file here");
      });

      test("a resource that cannot be read is one line, and the prompt goes without it", async () => {
        const home = homeWith(entry());
        const s = await serve({ text: "went without" });
        const run = await runShiro(["-p", "look at @library:lib://broken please", ...flags], { baseURL: s.url, home });
        expect(run.code).toBe(0);
        const lines = run.stderr.split("\n").filter((l) => l.includes("lib://broken"));
        expect(lines).toEqual(["note: not attached: library:lib://broken could not be read (the shelf fell over); the prompt is sent without it"]);
        expect(userTextIn(s.requests[0]!.body)).toContain("look at @library:lib://broken please");
        expect(userTextIn(s.requests[0]!.body)).not.toContain("<attached");
      });

      test("a prompt runs headless as /mcp__<server>__<prompt>: words fill its arguments in order or by name; its messages are the turn's", async () => {
        const home = homeWith(entry());
        const s = await serve({ text: "reviewed" }, { text: "briefed" });
        const run = await runShiro(["-p", '/mcp__library__review "src/a b.ts" focus=errors', ...flags], { baseURL: s.url, home });
        expect(run.code).toBe(0);
        const sent = userTextIn(s.requests[0]!.body);
        expect(sent).toContain("Review src/a b.ts for defects. Look first at errors.");
        expect(sent).not.toContain("/mcp__library__review");

        const briefing = await runShiro(["-p", "/mcp__library__briefing", ...flags], { baseURL: s.url, home });
        expect(briefing.code).toBe(0);
        const told = userTextIn(s.requests[1]!.body);
        expect(told).toContain("User: Read the guide below.");
        expect(told).toContain(`<attached path="library:lib://guide" kind="mcp-resource">\n${GUIDE_TEXT}\n</attached>`);
        expect(told).toContain("[image (image/png) in the MCP prompt; not sent: shiro sends the model text only]");
        expect(told).toContain("Assistant: Understood.");
      });

      test("a prompt missing a required argument stops with its usage in one line; nothing is sent", async () => {
        const home = homeWith(entry());
        const s = await serve();
        const run = await runShiro(["-p", "/mcp__library__review", ...flags], { baseURL: s.url, home });
        expect(run.code).toBe(2);
        expect(run.stderr).toContain("shiro: usage: /mcp__library__review <file> [focus] (missing file; file: the file to review)");
        expect(s.requests).toHaveLength(0);
      });
    });
  }
}

test("headless, a /mcp__<server>__… line the server has no prompt for stops with one line naming its prompts; nothing is sent", async () => {
  const home = homeWith({ command: process.execPath, args: [LIBRARY] });
  const s = await serve();
  const run = await runShiro(["-p", "/mcp__library__nope x"], { baseURL: s.url, home });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('shiro: unknown command /mcp__library__nope: the MCP server "library" has no such prompt (its prompts: /mcp__library__review, /mcp__library__briefing)');
  expect(s.requests).toHaveLength(0);
});
