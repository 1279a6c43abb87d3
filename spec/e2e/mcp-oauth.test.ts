import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { STAND_IN_BROWSER, startOAuthMcpServer, type OAuthServerOptions } from "../support/mcp/oauth-server.ts";
import { startHttpMcpServer } from "../support/mcp/http-server.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const BROWSER = STAND_IN_BROWSER;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function setUp(opts: OAuthServerOptions = {}) {
  const oauth = startOAuthMcpServer(opts);
  stops.push(oauth.stop);
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { conf: { url: oauth.url, allow: ["*"] } } }));
  const browserLog = join(home, "browser.log");
  const env = { BROWSER, BROWSER_LOG: browserLog };
  return { oauth, home, env, browserLog, tokenFile: join(home, ".shiro-neko", "mcp-oauth", "conf.json") };
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe("MCP servers that sign in with OAuth", () => {
  test("headless, a server that asks for a sign-in is reported in one line with the command, no browser is opened, and the turn goes on", async () => {
    const { oauth, home, env, browserLog } = setUp();
    const s = await serve({ text: "went on without it" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("went on without it");
    const lines = run.stderr.split("\n").filter((l) => l.includes('"conf"'));
    expect(lines).toEqual([expect.stringContaining('MCP server "conf" did not start: it asks you to sign in: run shiro mcp login conf')]);
    expect(run.stderr).not.toContain("Missing Authorization header"); // no fall back to SSE
    expect(existsSync(browserLog)).toBe(false);
    expect(oauth.log.registrations).toBe(0);
    expect(oauth.log.authorize).toHaveLength(0);
    const doctor = await runShiro(["doctor"], { home, env: { ...env, SHIRO_API_KEY: "sk-test" } });
    expect(doctor.stdout).toContain("conf (remote, from config): failed: it asks you to sign in: run shiro mcp login conf");
  });

  test('headless, a server marked "required": true that needs a sign-in ends the run with exit 2 before the model is asked', async () => {
    const { oauth, home, env } = setUp();
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { conf: { url: oauth.url, required: true } } }));
    const s = await serve();
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('shiro: required MCP server not available: "conf" (it asks you to sign in: run shiro mcp login conf)');
    expect(s.requests).toHaveLength(0);
  });

  test("shiro mcp login runs the browser flow (dynamic registration, PKCE S256, resource, scope, loopback redirect), and sessions then use the tokens", async () => {
    const { oauth, home, env, browserLog, tokenFile } = setUp();
    const login = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(login.stderr).toContain("open this address in your browser");
    expect(login.stdout).toContain('Signed in to "conf" (4 tools).');
    expect(login.code).toBe(0);
    expect(oauth.log.registrations).toBe(1);
    const asked = oauth.log.authorize[0]!;
    expect(readFileSync(browserLog, "utf8").trim()).toContain(`client_id=${asked.get("client_id")}`);
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("resource")).toBe(oauth.url);
    expect(asked.get("scope")).toBe("mcp:read"); // the WWW-Authenticate scope comes first
    expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(asked.get("state")!.length).toBeGreaterThanOrEqual(20);

    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const accessToken = JSON.parse(readFileSync(tokenFile, "utf8")).tokens.access_token as string;
    expect(accessToken).toStartWith("at-");

    const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "signed" } }] }, { text: "done" });
    const run = await runShiro(["-p", "use conf"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: signed");
    // The token is in its own file only: not in the config, the session, or any log.
    const others = filesUnder(home).filter((f) => f !== tokenFile && !f.includes(`${join(home, ".bun")}`));
    expect(others.filter((f) => readFileSync(f).includes(accessToken))).toEqual([]);
    expect(oauth.log.authorize).toHaveLength(1); // the session never started a sign-in
    const doctor = await runShiro(["doctor"], { home, env: { ...env, SHIRO_API_KEY: "sk-test" } });
    expect(doctor.stdout).toContain("conf (http, from config): connected, signed in, 4 tools");
  });

  test("an access token that stopped working is refreshed by the session without the browser; logout forgets it", async () => {
    const { oauth, home, env, tokenFile } = setUp();
    expect((await runShiro(["mcp", "login", "conf"], { home, env })).code).toBe(0);
    oauth.expireAccessTokens();
    const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "refreshed" } }] }, { text: "done" });
    const run = await runShiro(["-p", "go"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: refreshed");
    expect(oauth.log.token.map((t) => t.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect(oauth.log.authorize).toHaveLength(1);

    const logout = await runShiro(["mcp", "logout", "conf"], { home, env });
    expect(logout.stdout).toContain('Signed out of "conf"');
    expect(existsSync(tokenFile)).toBe(false);
  });

  test("an authorization server that does not advertise PKCE (S256) is refused, and nothing is stored", async () => {
    const { oauth, home, env, tokenFile } = setUp({ noPkceMethods: true });
    const login = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain("does not list S256 in its code_challenge_methods_supported");
    expect(oauth.log.authorize).toHaveLength(0);
    expect(existsSync(tokenFile)).toBe(false);
  });

  test("a callback whose iss is not the authorization server's is refused, so no tokens are asked for", async () => {
    const { oauth, home, env } = setUp({ wrongIss: "http://127.0.0.1:1/evil" });
    const login = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain("RFC 9207 iss check");
    expect(oauth.log.authorize).toHaveLength(1);
    expect(oauth.log.token).toHaveLength(0);
  });

  test("a server that answers 401 but publishes no OAuth metadata and has no default endpoints: the sign-in says so and suggests headers", async () => {
    const { home, env, browserLog } = setUp({ bare: true });
    const login = await runShiro(["mcp", "login", "conf"], { home, env });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('could not sign in to "conf"');
    expect(login.stderr).toContain('if it takes a fixed token instead, give it in a "headers" entry');
    expect(existsSync(browserLog)).toBe(false);
  });

  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    test(`a machine-to-machine server ("grant": "client_credentials", ${method} as its metadata says) is reached without a browser or a sign-in`, async () => {
      const { oauth, home, env, browserLog } = setUp({ m2m: { id: "robot", secret: "s3cret", method } });
      writeFileSync(
        join(home, ".shiro-neko", "config.json"),
        JSON.stringify({ mcpServers: { conf: { url: oauth.url, allow: ["*"], oauth: { clientId: "robot", clientSecret: "${M2M_SECRET}", grant: "client_credentials" } } } }),
      );
      const s = await serve({ toolCalls: [{ name: "mcp__conf__echo", input: { text: "m2m" } }] }, { text: "done" });
      const run = await runShiro(["-p", "go"], { baseURL: s.url, home, env: { ...env, M2M_SECRET: "s3cret" } });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: m2m");
      expect(oauth.log.token.map((t) => t.get("grant_type"))).toEqual(["client_credentials"]);
      expect(oauth.log.registrations).toBe(0);
      expect(existsSync(browserLog)).toBe(false);
    });
  }

  test("a project's .mcp.json that writes an oauth clientSecret into the file is not started, with one line saying how to write it", async () => {
    const { oauth, home, env } = setUp();
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ trustProjectMcp: true }));
    const work = tempDir();
    writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { shared: { url: oauth.url, oauth: { clientId: "x", clientSecret: "literal", grant: "client_credentials" } } } }));
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home, env, cwd: work });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('MCP server "shared" in .mcp.json has its "oauth.clientSecret" written in the file; it is not started.');
    expect(oauth.log.token).toHaveLength(0);
  });

  test("a server given a token in headers that answers 401 says the token was refused; it is neither signed in nor tried over SSE", async () => {
    const { oauth, home, env } = setUp();
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { conf: { url: oauth.url, headers: { Authorization: "Bearer ${NOT_SET}" } } } }));
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home, env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('MCP server "conf" did not start: it refused the Authorization header of its "headers" (HTTP 401): check the token (an unset ${VARIABLE} is empty) (unset variables: NOT_SET)');
    expect(oauth.log.registrations).toBe(0);
  });

  test("shiro mcp login on a server that needs no sign-in says so and stores nothing", async () => {
    const http = startHttpMcpServer();
    stops.push(http.stop);
    const { home, env, tokenFile } = setUp();
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { open: { url: http.url } } }));
    const login = await runShiro(["mcp", "login", "open"], { home, env });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('"open" answered without a sign-in (4 tools); there is nothing to sign in to.');
    expect(existsSync(join(home, ".shiro-neko", "mcp-oauth", "open.json"))).toBe(false);
    expect(existsSync(tokenFile)).toBe(false);
  });

  test("shiro mcp login names the configured servers when the name is wrong", async () => {
    const { home, env } = setUp();
    const wrong = await runShiro(["mcp", "login", "nope"], { home, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('no MCP server named "nope" is configured (configured: conf)');
  });
});
