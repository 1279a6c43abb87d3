/**
 * `shiro mcp login <server>`: signs in to a remote MCP server with OAuth. The SDK's transport
 * meets the 401 and runs `auth()`; the provider (oauth-provider.ts) registers with the loopback
 * redirect and hands over the authorization URL; the callback (oauth-callback.ts) waits for the
 * browser to come back; `finishAuth` trades the code for tokens; then shiro connects once more to
 * check the tokens work, and reports the server's tool count. A server that answers those tokens
 * with 403 `insufficient_scope` gets one more trip through the browser for the larger scope
 * (MAX_AUTHORIZATIONS in all); scopes a session was refused for are asked at once
 * (oauth-provider.ts, step-up).
 */
import type { RemoteServerConfig } from "../config/mcp-schema.ts";
import { expandAll, expandEnv, expandOAuth } from "./expand-env.ts";
import { startCallbackServer, type CallbackServer } from "./oauth-callback.ts";
import { createOAuthProvider, stepUpFetch } from "./oauth-provider.ts";
import { readOAuthRecord } from "./oauth-store.ts";
import type { SecretStore } from "./token-vault.ts";

/** How long shiro waits for the browser to come back. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;
/**
 * Browser round trips in one login: the sign-in, and one step-up when the server at once answers
 * the new token with a 403 `insufficient_scope` for more. A server that keeps asking is refused
 * then, not sent the user to the browser again and again.
 */
export const MAX_AUTHORIZATIONS = 2;

export type SignInOptions = {
  home: string;
  /** The system's secret store for the tokens (token-vault.ts); undefined: the file only. */
  secrets?: SecretStore;
  env: Record<string, string | undefined>;
  version: string;
  /** One line about the sign-in kept before (unreadable and set aside, or gone from the store). */
  notice?(line: string): void;
  /** Shows the URL (always) and opens it in a browser when one can be started. */
  open(url: URL): Promise<void>;
  signal: AbortSignal;
};

/** `already`: it was signed in before; `notNeeded`: it answered without any sign-in. */
export type SignInResult = { already: boolean; notNeeded: boolean; tools: number };

export async function signIn(name: string, config: RemoteServerConfig, opts: SignInOptions): Promise<SignInResult> {
  const url = new URL(expandEnv(config.url, opts.env, new Set()));
  const headers = expandAll(config.headers, opts.env, new Set());
  const { record: stored, notice } = readOAuthRecord(opts.home, name, url.href);
  if (notice) opts.notice?.(`${notice}; signing in afresh.`);
  const settings = expandOAuth(config.oauth, opts.env, new Set());
  if (settings?.grant === "client_credentials") throw new Error('it signs in by itself ("grant": "client_credentials"); there is nothing to sign in to here');
  let provider: ReturnType<typeof createOAuthProvider> | undefined;
  const expectation = { state: () => provider?.expectedState, issuer: () => provider?.issuer ?? { issRequired: false } };
  let callback: CallbackServer;
  if (settings?.clientId) {
    // A client registered by hand has its redirect, and so its port, fixed.
    if (!settings.callbackPort) throw new Error('a configured "clientId" needs the "callbackPort" it was registered with (redirect http://127.0.0.1:<port>/callback)');
    try {
      callback = startCallbackServer(settings.callbackPort, expectation);
    } catch {
      throw new Error(`port ${settings.callbackPort} on 127.0.0.1 (its "callbackPort") is taken; free it and try again`);
    }
  } else {
    try {
      callback = startCallbackServer(stored.port ?? 0, expectation); // the port the client was registered with, when free
    } catch {
      callback = startCallbackServer(0, expectation);
    }
  }
  try {
    let opened = 0;
    const open = async (authorizationUrl: URL) => {
      if (++opened > MAX_AUTHORIZATIONS) {
        const scope = authorizationUrl.searchParams.get("scope");
        throw new Error(`the server still refuses access after ${MAX_AUTHORIZATIONS} sign-ins${scope ? ` (it asks for scope "${scope}" again)` : ""}; ask its owner for that access`);
      }
      await opts.open(authorizationUrl);
    };
    provider = createOAuthProvider({ home: opts.home, server: name, url: url.href, version: opts.version, mode: { kind: "login", port: callback.port, open }, ...(settings ? { settings } : {}), ...(opts.secrets ? { secrets: opts.secrets } : {}) });
    await provider.tokens(); // reads what was kept, so that a loss is said before the browser opens
    if (provider.notice) opts.notice?.(`"${name}": ${provider.notice}; signing in afresh.`);
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const { UnauthorizedError } = await import("@modelcontextprotocol/sdk/client/auth.js");
    const attempt = async () => {
      const client = new Client({ name: "shiro", version: opts.version });
      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider!, fetch: stepUpFetch(provider!), requestInit: { headers } });
      try {
        await client.connect(transport);
        const tools = client.getServerCapabilities()?.tools ? (await client.listTools()).tools.length : 0;
        await client.close();
        return { tools };
      } catch (error) {
        await client.close().catch(() => {});
        if (error instanceof UnauthorizedError) return { transport };
        throw error;
      }
    };
    const first = await attempt().catch((error: unknown) => {
      // No metadata anywhere: the 2025-03-26 default endpoints were tried and failed too.
      const discovery = readOAuthRecord(opts.home, name, url.href).record.discovery;
      if (discovery && !discovery.authorizationServerMetadata) {
        throw new Error(`${error instanceof Error ? error.message : String(error)}. The server publishes no OAuth metadata and its default endpoints did not work; if it takes a fixed token instead, give it in a "headers" entry`);
      }
      throw error;
    });
    if (!("transport" in first) || !first.transport) {
      const signedIn = Boolean((await provider.tokens())?.access_token);
      return { already: signedIn, notNeeded: !signedIn, tools: first.tools ?? 0 };
    }
    let refused: Awaited<ReturnType<typeof attempt>> = first;
    let answered = 0;
    // Each refusal sent the browser to the authorization server (counted in `open`); a refusal
    // without one (the new tokens refused outright) ends here.
    while ("transport" in refused && refused.transport) {
      if (opened === answered) throw new Error("the server still refuses the new tokens");
      answered = opened;
      const waited = AbortSignal.any([opts.signal, AbortSignal.timeout(SIGN_IN_WAIT_MS)]);
      const code = await callback.code(waited).catch((error: unknown) => {
        throw waited.aborted && !opts.signal.aborted ? new Error(`nobody came back from the browser within ${SIGN_IN_WAIT_MS / 60_000} minutes`) : error;
      });
      await refused.transport.finishAuth(code);
      refused = await attempt();
    }
    return { already: false, notNeeded: false, tools: refused.tools ?? 0 };
  } finally {
    callback.stop();
  }
}
