import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../../lib/config/load.ts";
import { readProjectMcp } from "../../lib/mcp/project-file.ts";
import { tempDir } from "../support/cli.ts";

/** Every kind of entry docs/extending.md describes, with every field it lists. */
const VALID = {
  local: { type: "stdio", command: "npx", args: ["-y", "@example/server"], env: { TOKEN: "${TOKEN}" }, cwd: "tools", allow: ["search_*"], enabled: true, timeoutMs: 5000, description: "copied from another tool" },
  bare: { command: "uvx" },
  remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" }, allow: ["*"], enabled: false, timeoutMs: 100 },
  old: { type: "sse", url: "https://example.com/sse" },
  http: { type: "http", url: "https://example.com/mcp" },
};

async function configError(mcpServers: unknown): Promise<string> {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ mcpServers }));
  return loadConfigFile(path).then(
    () => "loaded",
    (error: Error) => error.message.replace(path, "<file>"),
  );
}

test("every kind of MCP server entry the docs describe loads as written", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ mcpServers: VALID }));
  expect((await loadConfigFile(path)).mcpServers).toEqual(VALID as never);
});

test("a misspelled field inside an MCP server entry is an error naming its path and the field it looks like", async () => {
  expect(await configError({ github: { command: "gh-mcp", evn: { A: "1" } } })).toBe(
    'config file <file>: unknown field "mcpServers.github.evn". Did you mean env? See shiro help configuration.',
  );
  expect(await configError({ docs: { url: "https://example.com/mcp", header: {} } })).toBe(
    'config file <file>: unknown field "mcpServers.docs.header". Did you mean headers? See shiro help configuration.',
  );
  expect(await configError({ "my-server": { command: "x", arg: [] } })).toContain('unknown field "mcpServers.my-server.arg". Did you mean args?');
  // A field of the other kind is unknown too: a local server has no headers.
  expect(await configError({ local: { command: "x", headers: {} } })).toContain('unknown field "mcpServers.local.headers"');
});

test("an entry with neither a command nor a url, or both, says what an entry needs", async () => {
  expect(await configError({ demo: { args: ["x"] } })).toBe(
    'config file <file>: field "mcpServers.demo" must have a "command" (a local server) or a "url" (a remote one). See shiro help configuration.',
  );
  expect(await configError({ demo: { command: "x", url: "https://example.com" } })).toContain('field "mcpServers.demo" has both "command" and "url"');
  expect(await configError({ demo: { command: 3 } })).toContain('field "mcpServers.demo.command" must be the program to run');
});

test("a project's .mcp.json is checked the same way: a misspelled field makes the file unusable, with the field named", () => {
  const root = tempDir();
  writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { db: { command: "npx", argz: ["db-mcp"] } } }));
  expect(readProjectMcp(root)).toEqual({ status: "invalid", path: join(root, ".mcp.json"), reason: 'unknown field "mcpServers.db.argz". Did you mean args?' });
  writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: VALID }));
  expect(readProjectMcp(root)).toMatchObject({ status: "found", servers: VALID });
});
