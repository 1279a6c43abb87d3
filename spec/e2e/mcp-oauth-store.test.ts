import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { STAND_IN_BROWSER, startOAuthMcpServer } from "../support/mcp/oauth-server.ts";

// Runs as every spec does with SHIRO_MCP_TOKEN_STORE=file (spec/support/host-tools.ts): the
// tokens stay in the test's SHIRO_HOME, never in this machine's keychain.
setDefaultTimeout(30_000);
const serve = useFakeServer();
const BROWSER = STAND_IN_BROWSER;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

test("a corrupt sign-in file is set aside and said in one line, headless and by shiro mcp login, which then signs in afresh", async () => {
  const oauth = startOAuthMcpServer();
  stops.push(oauth.stop);
  const home = tempDir();
  const shiroHome = join(home, ".shiro-neko");
  mkdirSync(join(shiroHome, "mcp-oauth"), { recursive: true });
  writeFileSync(join(shiroHome, "config.json"), JSON.stringify({ mcpServers: { conf: { url: oauth.url, allow: ["*"] } } }));
  const tokenFile = join(shiroHome, "mcp-oauth", "conf.json");
  const env = { BROWSER };

  writeFileSync(tokenFile, '{"url": "' + oauth.url + '", "tokens": ');
  const s = await serve({ text: "went on without it" });
  const run = await runShiro(["-p", "hi"], { baseURL: s.url, home, env });
  expect(run.code).toBe(0);
  const lines = run.stderr.split("\n").filter((l) => l.includes('"conf"'));
  expect(lines).toEqual([expect.stringMatching(/^note: MCP server "conf" did not start: it asks you to sign in again: run shiro mcp login conf \(the sign-in kept for MCP server "conf" could not be read \(/)]);

  writeFileSync(tokenFile, "not json at all");
  const login = await runShiro(["mcp", "login", "conf"], { home, env });
  expect(login.code).toBe(0);
  expect(login.stderr).toMatch(/shiro: the sign-in kept for MCP server "conf" could not be read \(.+\); it was moved to .+conf\.json\.corrupt-[^;]+; signing in afresh\.\n/);
  expect(login.stdout).toContain('Signed in to "conf" (4 tools).');
  const aside = readdirSync(join(shiroHome, "mcp-oauth")).filter((f) => f.includes(".corrupt-"));
  expect(aside.map((f) => readFileSync(join(shiroHome, "mcp-oauth", f), "utf8")).sort()).toEqual(["not json at all", '{"url": "' + oauth.url + '", "tokens": ']);
  expect(JSON.parse(readFileSync(tokenFile, "utf8")).tokens.access_token).toStartWith("at-");
});
