/**
 * shiro's side of MCP OAuth: the SDK's `auth()` does the protocol (discovery, dynamic
 * registration, PKCE, the token and refresh requests, scope selection); this provider only keeps
 * what it is handed (token-vault.ts: the system's secret store and oauth-store.ts's file) and
 * decides what may happen where. The record is read once: its file part at once, its secrets
 * from the store before the first `tokens()`/`clientInformation()` (the SDK awaits both).
 *
 * - "background" (every session, the loop and headless alike): stored tokens are sent and
 *   refreshed, but nothing interactive ever happens: where the flow would register a client or
 *   send the user to a browser, it stops with McpSignInNeeded, and the server is reported with
 *   the command that signs in (`shiro mcp login <server>`).
 * - "login" (`shiro mcp login`): registers if needed, with the loopback redirect on `port`, and
 *   hands the authorization URL to `open`.
 *
 * An authorization server whose metadata does not list S256 in `code_challenge_methods_supported`
 * is refused (the 2025-11-25 specification requires PKCE to be advertised; the SDK would go on).
 *
 * Step-up (a 403 `insufficient_scope`, seen by `stepUpFetch` before the SDK acts on it): a session
 * cannot open a browser, so it remembers the scopes the server named in the record (`stepUp`) and
 * the request fails with the command; `shiro mcp login` does not reuse the narrower tokens (nor
 * refresh them: a refresh never widens a grant, which is what the SDK would try first) and asks
 * for those scopes as well.
 */
import { randomBytes } from "node:crypto";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthSettings } from "../config/mcp-schema.ts";
import type { OAuthRecord } from "./oauth-store.ts";
import { createTokenVault, type SecretStore } from "./token-vault.ts";

/** Thrown (through the SDK) when a server needs a sign-in that only `shiro mcp login` may do. */
export class McpSignInNeeded extends Error {
  override name = "McpSignInNeeded";
}

export type ProviderMode = { kind: "background" } | { kind: "login"; port: number; open(url: URL): Promise<void> };

export type ShiroOAuthProvider = ReturnType<typeof createOAuthProvider>;

export function loginCommand(server: string): string {
  return `shiro mcp login ${server}`;
}

/**
 * `settings` is the server's `oauth` entry with its `${VAR}`s already filled in. A configured
 * `clientId` is used instead of registering; its redirect port is `callbackPort`.
 */
export function createOAuthProvider(opts: { home: string; server: string; url: string; version: string; mode: ProviderMode; settings?: OAuthSettings; secrets?: SecretStore }) {
  const settings = opts.settings ?? {};
  const configured = settings.clientId ? { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) } : undefined;
  const vault = createTokenVault(opts.home, opts.server, opts.secrets);
  const mode = opts.mode;
  let record: OAuthRecord = { url: opts.url };
  /** Why the kept sign-in could not be used (a corrupt file set aside, secrets gone from the store). */
  let notice: string | undefined;
  const ready = vault.read(opts.url).then((read) => {
    record = read.record;
    notice = read.notice;
    stepUpPending = mode.kind === "login" && Boolean(record.stepUp);
    if (mode.kind === "login" && record.port !== mode.port && !configured) {
      // The client was registered with another redirect port: register again with this one.
      record = { url: opts.url, ...(record.discovery ? { discovery: record.discovery } : {}), ...(record.stepUp ? { stepUp: record.stepUp } : {}) };
    }
  });
  const save = async (change: Partial<OAuthRecord>) => {
    await ready;
    record = { ...record, ...change };
    await vault.keep(record);
  };
  // The command first: a long notice may be cut short in a one-line report.
  const needed = () => new McpSignInNeeded(notice ? `it asks you to sign in again: run ${loginCommand(opts.server)} (${notice})` : `it asks you to sign in: run ${loginCommand(opts.server)}`);
  /** Set once the SDK began the authorization flow (after a 401). */
  let authTried = false;
  /** Login after a step-up: the kept tokens lack scopes the server asked for, so they are not offered. */
  let stepUpPending = false;
  /** The scope the authorization request under way asks for (login), kept with the tokens it brings. */
  let askedScope: string | undefined;
  /** The `state` of the authorization request under way, for the callback to check. */
  let expectedState: string | undefined;
  const redirect = (port: number) => `http://127.0.0.1:${port}/callback`;

  const redirectUrl = (): string => {
    if (mode.kind === "login") return redirect(mode.port);
    if (configured && settings.callbackPort) return redirect(settings.callbackPort);
    // Background: a client registered at sign-in keeps its redirect; without one, registering
    // now would only lead to a browser, so stop here.
    if (record.client && record.port) return redirect(record.port);
    throw needed();
  };

  return {
    get redirectUrl(): string {
      return redirectUrl();
    },
    get clientMetadata() {
      return {
        client_name: "shiro",
        software_version: opts.version,
        redirect_uris: [redirectUrl()],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        ...(settings.scope ? { scope: settings.scope } : {}),
      };
    },
    ...(settings.clientMetadataUrl ? { clientMetadataUrl: settings.clientMetadataUrl } : {}),
    state(): string {
      expectedState = randomBytes(24).toString("base64url");
      return expectedState;
    },
    get expectedState() {
      return expectedState;
    },
    /** The issuer the authorization server's metadata names, for the callback's `iss` check. */
    get issuer(): { issuer?: string; issRequired: boolean } {
      const metadata = record.discovery?.authorizationServerMetadata as { issuer?: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
      return { issuer: metadata?.issuer, issRequired: metadata?.authorization_response_iss_parameter_supported === true };
    },
    /** Why the kept sign-in could not be used, once it has been read (for `shiro mcp login` to say). */
    get notice() {
      return notice;
    },
    async clientInformation() {
      await ready;
      return (configured ?? record.client) as OAuthClientInformationMixed | undefined;
    },
    saveClientInformation(client: object) {
      return save({ client: { ...client }, ...(mode.kind === "login" ? { port: mode.port } : {}) });
    },
    async tokens() {
      await ready;
      return stepUpPending ? undefined : (record.tokens as OAuthTokens | undefined);
    },
    async saveTokens(tokens: OAuthTokens) {
      await ready;
      // What the tokens cover: the scope the response names, else the one the sign-in asked for
      // (a refresh keeps the sign-in's). A sign-in that asked for the step-up's scopes settles it.
      const scope = tokens.scope ?? (mode.kind === "login" ? askedScope : record.scope);
      const { stepUp: _settled, scope: _old, ...rest } = record;
      const keepStepUp = mode.kind === "background" && record.stepUp ? { stepUp: record.stepUp } : {};
      stepUpPending = false;
      record = { ...rest, tokens: { ...tokens }, tokensAt: Date.now(), ...(scope ? { scope } : {}), ...keepStepUp };
      await vault.keep(record);
    },
    async redirectToAuthorization(url: URL): Promise<void> {
      await ready;
      if (mode.kind === "background") throw needed();
      if (record.stepUp) url.searchParams.set("scope", joinScopes(url.searchParams.get("scope") ?? undefined, record.stepUp));
      askedScope = url.searchParams.get("scope") ?? undefined;
      return mode.open(url);
    },
    /**
     * The server answered 403 `insufficient_scope` naming `scope`. A session stops there with the
     * command that signs in (remembering the scope for it); a login asks for it next.
     */
    async insufficientScope(scope: string | undefined): Promise<void> {
      await ready;
      const stepUp = joinScopes(record.stepUp, scope);
      if (stepUp) await save({ stepUp });
      if (mode.kind === "background") throw new McpSignInNeeded(`it asks for more access${stepUp ? ` (scope "${stepUp}")` : ""}: run ${loginCommand(opts.server)}`);
      stepUpPending = true;
    },
    saveCodeVerifier(verifier: string) {
      return save({ verifier });
    },
    async codeVerifier(): Promise<string> {
      await ready;
      if (!record.verifier) throw new Error("no PKCE code verifier was saved for this sign-in; run the sign-in again");
      return record.verifier;
    },
    async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
      await ready;
      const { url, port, client, tokens, tokensAt, verifier, discovery, stepUp } = record;
      const keep: OAuthRecord = { url };
      if (scope !== "all" && scope !== "client") Object.assign(keep, client ? { client, port } : {});
      if (scope !== "all" && scope !== "tokens" && tokens) Object.assign(keep, { tokens }, tokensAt ? { tokensAt } : {}, record.scope ? { scope: record.scope } : {});
      if (scope !== "all" && stepUp) keep.stepUp = stepUp;
      if (scope !== "all" && scope !== "verifier" && verifier) keep.verifier = verifier;
      if (scope !== "all" && scope !== "discovery" && discovery) keep.discovery = discovery;
      record = keep;
      await vault.keep(record);
    },
    saveDiscoveryState(state: { authorizationServerUrl: string; authorizationServerMetadata?: { code_challenge_methods_supported?: string[] } }) {
      const methods = state.authorizationServerMetadata?.code_challenge_methods_supported;
      if (state.authorizationServerMetadata && !methods?.includes("S256")) {
        throw new Error(`the authorization server ${state.authorizationServerUrl} does not list S256 in its code_challenge_methods_supported, so it cannot promise PKCE; shiro does not sign in there`);
      }
      return save({ discovery: { ...state } });
    },
    get authTried() {
      return authTried;
    },
    async discoveryState() {
      authTried = true;
      await ready;
      return record.discovery as OAuthDiscoveryState | undefined;
    },
  };
}

function scopesIn(scope: string | undefined): string[] {
  return (scope ?? "").split(/\s+/).filter(Boolean);
}

/** Both lists of scopes as one, each scope once, in the order first seen. */
function joinScopes(a: string | undefined, b: string | undefined): string {
  return [...new Set([...scopesIn(a), ...scopesIn(b)])].join(" ");
}

/**
 * The fetch a transport with this provider uses: it hands a 403 `insufficient_scope` to the
 * provider before the SDK sees it (the SDK would refresh the token, which cannot widen it).
 */
export function stepUpFetch(provider: Pick<ShiroOAuthProvider, "insufficientScope">): typeof fetch {
  const watched = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.status !== 403) return response;
    const header = response.headers.get("www-authenticate") ?? "";
    if (authParam(header, "error") !== "insufficient_scope") return response;
    await provider.insufficientScope(authParam(header, "scope"));
    return response; // a login goes on: the SDK's step-up, once per transport, meets the browser limit of login.ts
  };
  return watched as typeof fetch;
}

/** One parameter of a `WWW-Authenticate: Bearer …` header (quoted or not). */
function authParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"([^"]*)"|([^\\s,]+))`).exec(header);
  return match ? (match[1] ?? match[2]) : undefined;
}
