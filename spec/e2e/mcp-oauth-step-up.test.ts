import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { STAND_IN_BROWSER, startOAuthMcpServer, type OAuthServerOptions } from "../support/mcp/oauth-server.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const BROWSER = STAND_IN_BROWSER;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function setUp(opts: OAuthServerOptions) {
  const oauth = startOAuthMcpServer(opts);
  stops.push(oauth.stop);
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { conf: { url: oauth.url, allow: ["*"] } } }));
  const browserLog = join(home, "browser.log");
  return { oauth, home, env: { BROWSER, BROWSER_LOG: browserLog }, browserLog };
}

const opened = (log: string) => readFileSync(log, "utf8").trim().split("\n").length;

describe("MCP servers that ask for more access (403 insufficient_scope)", () => {
  test("a tool call refused for want of scope says which scope and the command; the next shiro mcp login asks for it, and the call then works", async () => {
    const { oauth, home, env, browserLog } = setUp({ stepUp: "mcp:write" });
    expect((await runShiro(["mcp", "login", "conf"], { home, env })).code).toBe(0);
    expect(oauth.log.authorize[0]!.get("scope")).toBe("mcp:read");

    const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "more" } }] }, { text: "told" });
    const run = await runShiro(["-p", "use conf"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    const refusal = 'it asks for more access (scope "mcp:read mcp:write"): run shiro mcp login conf';
    expect(JSON.parse(toolOutputsIn(s.requests[1]!.body).join("")).error).toBe(`conf/echo failed: ${refusal}`);
    expect(run.stderr).toContain(refusal);
    expect(opened(browserLog)).toBe(1); // the session never opened the browser
    expect(oauth.log.authorize).toHaveLength(1);

    // The kept tokens still answer tools/list, so this is a new sign-in, not "already signed in".
    const again = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(again.stdout).toContain('Signed in to "conf" (4 tools).');
    expect(again.code).toBe(0);
    expect(oauth.log.authorize).toHaveLength(2);
    expect(oauth.log.authorize[1]!.get("scope")).toBe("mcp:read mcp:write");

    const s2 = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "stepped up" } }] }, { text: "done" });
    const after = await runShiro(["-p", "use conf"], { baseURL: s2.url, home, env });
    expect(after.code).toBe(0);
    expect(toolOutputsIn(s2.requests[1]!.body).join("")).toBe("echo: stepped up");
    expect(oauth.log.authorize).toHaveLength(2);

    // Settled: a third login finds the sign-in good as it is.
    const third = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(third.stdout).toContain('"conf" is already signed in (4 tools).');
    expect(oauth.log.authorize).toHaveLength(2);
  });

  test("the scopes a session was refused for are asked for even when the login must register again (its old port is taken)", async () => {
    const { oauth, home, env } = setUp({ stepUp: "mcp:write" });
    expect((await runShiro(["mcp", "login", "conf"], { home, env })).code).toBe(0);
    const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "more" } }] }, { text: "told" });
    expect((await runShiro(["-p", "use conf"], { baseURL: s.url, home, env })).stderr).toContain("it asks for more access");
    const port = JSON.parse(readFileSync(join(home, ".shiro-neko", "mcp-oauth", "conf.json"), "utf8")).port as number;
    const squatter = Bun.serve({ hostname: "127.0.0.1", port, fetch: () => new Response("taken") });
    stops.push(() => squatter.stop(true));
    const again = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(again.code).toBe(0);
    expect(oauth.log.registrations).toBe(2);
    expect(oauth.log.authorize[1]!.get("scope")).toBe("mcp:read mcp:write");
  });

  test("shiro mcp login gives up, with one line, when the server keeps asking for a scope no sign-in gets it", async () => {
    const { oauth, home, env, browserLog } = setUp({ neverEnough: "mcp:admin" });
    const login = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('could not sign in to "conf": the server still refuses access after 2 sign-ins (it asks for scope "mcp:admin" again)');
    // The sign-in and one step-up; the browser is not sent there a third time.
    expect(oauth.log.authorize).toHaveLength(2);
    expect(opened(browserLog)).toBe(2);
    expect(oauth.log.authorize[1]!.get("scope")).toBe("mcp:admin");
  });
});
