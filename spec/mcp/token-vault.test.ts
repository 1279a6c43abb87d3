import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shiroEnv, tempDir } from "../support/cli.ts";
import { systemSecretStore, withSecrets } from "../../cmd/token-store.ts";
import { startOAuthMcpServer } from "../support/mcp/oauth-server.ts";
import { connectServer, type ConnectOptions } from "../../lib/mcp/connect.ts";
import { signIn } from "../../lib/mcp/login.ts";
import { createOAuthProvider } from "../../lib/mcp/oauth-provider.ts";
import { writeOAuthRecord } from "../../lib/mcp/oauth-store.ts";
import { signInState } from "../../lib/mcp/sign-in-state.ts";
import { forgetSignIn, SECRET_SERVICE, type SecretKey, type SecretStore } from "../../lib/mcp/token-vault.ts";

setDefaultTimeout(30_000);
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});
const HOUR = 3_600_000;

/** A system secret store kept in memory; `broken` makes every call throw as Bun.secrets does without libsecret. */
function fakeStore(opts: { broken?: boolean } = {}) {
  const entries = new Map<string, string>();
  const id = (key: SecretKey) => `${key.service}\u0000${key.name}`;
  const fail = () => {
    if (opts.broken) throw Object.assign(new Error("libsecret not available"), { code: "ERR_SECRETS_PLATFORM_ERROR" });
  };
  const store: SecretStore = {
    get: async (key) => (fail(), entries.get(id(key)) ?? null),
    set: async (entry) => void (fail(), entries.set(id(entry), entry.value)),
    delete: async (key) => (fail(), entries.delete(id(key))),
  };
  return { store, entries };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The OAuth server of the e2e specs, a shiro home, and the sign-in flow run in this process (the "browser" follows the redirect). */
function setUp() {
  const oauth = startOAuthMcpServer();
  stops.push(oauth.stop);
  const home = join(tempDir(), ".shiro-neko");
  mkdirSync(home);
  const config = { url: oauth.url };
  const login = (secrets: SecretStore | undefined, notice?: (line: string) => void) =>
    signIn("conf", config, {
      home,
      env: {},
      version: "0.0.0-test",
      signal: new AbortController().signal,
      open: async (url) => void (await fetch(url, { redirect: "follow" })).text(),
      ...(secrets ? { secrets } : {}),
      ...(notice ? { notice } : {}),
    });
  const connect = async (secrets: SecretStore | undefined) => {
    const opts: ConnectOptions = { root: home, home, env: {}, version: "0.0.0-test", signal: new AbortController().signal, onClosed: () => {}, onToolsChanged: () => {}, ...(secrets ? { secrets } : {}) };
    const connection = await connectServer("conf", config, opts);
    await connection.close();
    return connection;
  };
  const tokenFile = join(home, "mcp-oauth", "conf.json");
  return { oauth, home, config, login, connect, tokenFile };
}

test("with a system secret store, the tokens go there and no file under SHIRO_HOME holds them; sessions use them; /mcp says signed in; logout deletes them", async () => {
  const { home, config, login, connect, tokenFile } = setUp();
  const { store, entries } = fakeStore();
  expect(await login(store)).toEqual({ already: false, notNeeded: false, tools: 4 });

  expect(entries.size).toBe(1);
  const [key, value] = [...entries][0]!;
  expect(key).toBe(`${SECRET_SERVICE}\u0000conf (${home})`);
  const secret = JSON.parse(value!) as { url: string; tokens: { access_token: string; refresh_token: string } };
  expect(secret.url).toBe(config.url);
  expect(secret.tokens.access_token).toStartWith("at-");
  expect(secret.tokens.refresh_token).toStartWith("rt-");
  for (const file of filesUnder(home)) {
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(secret.tokens.access_token);
    expect(text).not.toContain(secret.tokens.refresh_token);
  }
  const kept = JSON.parse(readFileSync(tokenFile, "utf8"));
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  expect(kept).toMatchObject({ url: config.url, secrets: "system", tokenInfo: { refreshToken: true, expiresIn: 3600 } });
  expect(kept.tokens).toBeUndefined();
  expect(typeof kept.client.client_id).toBe("string");

  const session = await connect(store);
  expect(session.signedIn).toBe(true);
  expect(session.tools).toHaveLength(4);
  expect(signInState(home, "conf", config, {}, undefined)).toBe("signed-in");
  expect(signInState(home, "conf", config, {}, undefined, kept.tokensAt + 2 * HOUR)).toBe("expired-refreshable");

  expect(await forgetSignIn(home, "conf", store)).toBe(true);
  expect(entries.size).toBe(0);
  expect(existsSync(tokenFile)).toBe(false);
  expect(await forgetSignIn(home, "conf", store)).toBe(false);
});

test("an expired token kept in the store without a refresh token is expired; the state needs no access to the store", () => {
  const home = tempDir();
  const config = { url: "https://mcp.example/mcp" };
  const at = Date.now();
  writeOAuthRecord(home, "t", { url: config.url, tokensAt: at, secrets: "system", tokenInfo: { refreshToken: false, expiresIn: 3600 } });
  expect(signInState(home, "t", config, {}, undefined, at + HOUR / 2)).toBe("signed-in");
  expect(signInState(home, "t", config, {}, undefined, at + 2 * HOUR)).toBe("expired");
});

test("tokens gone from the store count as no sign-in: the session says to sign in again, and /mcp says a sign-in is needed", async () => {
  const { home, config, login, connect } = setUp();
  const { store, entries } = fakeStore();
  await login(store);
  entries.clear();
  const error = await connect(store).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(error).toContain("it asks you to sign in again: run shiro mcp login conf (its tokens are no longer in the system's secret store)");
  expect(signInState(home, "conf", config, {}, error)).toBe("needed");
  // The file no longer claims a sign-in it cannot give.
  expect(signInState(home, "conf", config, {}, undefined)).toBeUndefined();
});

test("a store that cannot be read counts as no sign-in this time, and the sign-in comes back when it can", async () => {
  const { home, config, login, connect } = setUp();
  const { store, entries } = fakeStore();
  await login(store);
  const unreadable: SecretStore = { ...store, get: async () => Promise.reject(new Error("the keychain is locked")) };
  const error = await connect(unreadable).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(error).toContain("it asks you to sign in again: run shiro mcp login conf (its tokens are in the system's secret store, which could not be read (the keychain is locked))");
  expect(signInState(home, "conf", config, {}, error)).toBe("needed");
  expect(entries.size).toBe(1);
  expect((await connect(store)).signedIn).toBe(true);
});

test("when the system store fails (no libsecret), the tokens are kept in the 0600 file as without one, and work", async () => {
  const { config, login, connect, tokenFile } = setUp();
  const { store, entries } = fakeStore({ broken: true });
  expect((await login(store)).tools).toBe(4);
  expect(entries.size).toBe(0);
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  const kept = JSON.parse(readFileSync(tokenFile, "utf8"));
  expect(kept.tokens.access_token).toStartWith("at-");
  expect(kept.secrets).toBeUndefined();
  expect((await connect(store)).signedIn).toBe(true);
  expect(signInState(join(tokenFile, "..", ".."), "conf", config, {}, undefined)).toBe("signed-in");
});

test("a client's secret goes to the store too; invalidating the tokens and then everything removes them from it", async () => {
  const home = tempDir();
  const url = "https://mcp.example/mcp";
  const { store, entries } = fakeStore();
  const make = () => createOAuthProvider({ home, server: "s", url, version: "0", mode: { kind: "login", port: 4711, open: async () => {} }, secrets: store });
  const provider = make();
  await provider.saveClientInformation({ client_id: "c1", client_secret: "cs-very-secret", redirect_uris: ["http://127.0.0.1:4711/callback"] });
  await provider.saveTokens({ access_token: "at-1", refresh_token: "rt-1", token_type: "Bearer" });
  const file = readFileSync(join(home, "mcp-oauth", "s.json"), "utf8");
  expect(file).not.toContain("cs-very-secret");
  expect(file).not.toContain("at-1");
  expect([...entries.values()].join("")).toContain("cs-very-secret");

  const again = make();
  expect(await again.clientInformation()).toMatchObject({ client_id: "c1", client_secret: "cs-very-secret" });
  expect(await again.tokens()).toMatchObject({ access_token: "at-1", refresh_token: "rt-1" });
  // Another URL for the same server name never gets them.
  const moved = createOAuthProvider({ home, server: "s", url: "https://elsewhere.example/mcp", version: "0", mode: { kind: "background" }, secrets: store });
  expect(await moved.tokens()).toBeUndefined();

  await again.invalidateCredentials("tokens");
  expect([...entries.values()].join("")).not.toContain("at-1");
  expect([...entries.values()].join("")).toContain("cs-very-secret");
  await again.invalidateCredentials("all");
  expect(entries.size).toBe(0);
  expect(await make().tokens()).toBeUndefined();
});

test("a corrupt sign-in file is set aside and said, by shiro mcp login and by the session, never silently overwritten", async () => {
  const { home, login, connect, tokenFile } = setUp();
  mkdirSync(join(home, "mcp-oauth"));
  writeFileSync(tokenFile, "{ not json");
  const error = await connect(undefined).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(error).toMatch(/^it asks you to sign in again: run shiro mcp login conf \(the sign-in kept for MCP server "conf" could not be read \(not valid JSON/);

  writeFileSync(tokenFile, '{"url": 42}');
  const notices: string[] = [];
  expect((await login(undefined, (line) => notices.push(line))).tools).toBe(4);
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatch(/could not be read .*; it was moved to .*; signing in afresh\.$/);
  const aside = readdirSync(join(home, "mcp-oauth")).filter((f) => f.includes(".corrupt-"));
  expect(aside.map((f) => readFileSync(join(home, "mcp-oauth", f), "utf8")).sort()).toEqual(["{ not json", '{"url": 42}']);
});

test("SHIRO_MCP_TOKEN_STORE=file hands lib no system store, and every shiro under test gets it, so no spec touches a real keychain", () => {
  expect(systemSecretStore({ SHIRO_MCP_TOKEN_STORE: "file" })).toBeUndefined();
  expect(withSecrets({ SHIRO_MCP_TOKEN_STORE: "file" })).toEqual({});
  // Without it, the system's store is handed in (not called here).
  expect(Object.keys(withSecrets({}).secrets ?? {}).sort()).toEqual(["delete", "get", "set"]);
  expect(shiroEnv(tempDir(), undefined).SHIRO_MCP_TOKEN_STORE).toBe("file");
  expect(process.env.SHIRO_MCP_TOKEN_STORE).toBe("file");
});
