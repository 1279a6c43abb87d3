import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const BOOKER = join(import.meta.dir, "..", "support", "mcp", "elicit-server.ts");
const DOCS = join(import.meta.dir, "..", "support", "mcp", "resource-server.ts");

function homeWith(mcpServers: unknown): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers }));
  return home;
}

test("a server's resources are listed and read through mcp__<server>__read_resource: text as it is, binary as a note, an unknown URI as an error", async () => {
  const home = homeWith({ docs: { command: process.execPath, args: [DOCS], allow: ["read_resource"] } });
  const s = await serve(
    { toolCalls: [{ name: "mcp__docs__read_resource", input: {} }] },
    { toolCalls: [{ name: "mcp__docs__read_resource", input: { uri: "docs://guide" } }, { name: "mcp__docs__read_resource", input: { uri: "docs://logo.png" } }] },
    { toolCalls: [{ name: "mcp__docs__read_resource", input: { uri: "docs://nope" } }] },
    { text: "read" },
  );
  const run = await runShiro(["-p", "read the docs"], { baseURL: s.url, home });
  expect(run.code).toBe(0);
  const offered = (s.requests[0]!.body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
  expect(offered).toContain("mcp__docs__read_resource");
  const listing = toolOutputsIn(s.requests[1]!.body).join("");
  expect(listing).toContain("docs://guide  The guide (text/markdown): how to use the thing");
  expect(listing).toContain("docs://pages/{page}  page");
  const [guide, logo] = toolOutputsIn(s.requests[2]!.body).slice(-2);
  expect(guide).toBe("# Guide\nTurn it on.");
  expect(logo).toBe("[binary resource docs://logo.png (image/png, 12 bytes); not shown here]");
  expect(toolOutputsIn(s.requests[3]!.body).at(-1)).toContain("resource not found: docs://nope");
});

test("headless, shiro does not declare elicitation, so a server that would ask a question does not, and its tool still answers", async () => {
  const home = homeWith({ booker: { command: process.execPath, args: [BOOKER], allow: ["*"] } });
  const s = await serve({ toolCalls: [{ name: "mcp__booker__book", input: {} }] }, { text: "done" });
  const run = await runShiro(["-p", "book a table"], { baseURL: s.url, home });
  expect(run.code).toBe(0);
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("no elicitation: the client cannot be asked");
});
