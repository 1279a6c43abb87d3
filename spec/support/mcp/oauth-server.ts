/**
 * An OAuth-protected MCP server in the test's own process, written from the specifications (MCP
 * authorization, RFC 9728, RFC 8414, RFC 7591, RFC 7636, RFC 9207), not with the SDK shiro uses:
 * protected resource metadata, authorization server metadata, dynamic client registration, an
 * authorization endpoint that redirects at once (no person needed) with `state` and `iss`, a
 * token endpoint that checks PKCE (S256) and the redirect URI and refreshes, and the demo MCP
 * endpoint, which answers 401 with `WWW-Authenticate: Bearer resource_metadata=…` without a
 * valid bearer token, and, when asked to, 403 `insufficient_scope` to a token granted too little. `log` records what each endpoint was asked.
 */
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { answer } from "./demo-protocol.ts";

/** A `$BROWSER` for the tests: fetches the authorization URL and follows its redirect to shiro's loopback callback (browser.ts). */
export const STAND_IN_BROWSER = `${process.execPath} ${join(import.meta.dir, "browser.ts")}`;

export type OAuthServerOptions = {
  /** Leave code_challenge_methods_supported out of the metadata. */
  noPkceMethods?: boolean;
  /** Send this `iss` back instead of the real issuer. */
  wrongIss?: string;
  /** A machine-to-machine client: the token endpoint takes grant_type=client_credentials from it, authenticated as `method` says. */
  m2m?: { id: string; secret: string; method: "client_secret_basic" | "client_secret_post" };
  /** No OAuth at all: a plain `WWW-Authenticate: Bearer` on 401, and every OAuth endpoint 404. */
  bare?: boolean;
  /**
   * Step-up: a tools/call with a token not granted this scope gets 403 `insufficient_scope`
   * naming "mcp:read" and it (tokens are granted what the authorization request asked for).
   */
  stepUp?: string;
  /** Every request with a valid token gets 403 `insufficient_scope` for this scope, which no sign-in grants. */
  neverEnough?: string;
};

export function startOAuthMcpServer(opts: OAuthServerOptions = {}) {
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string; resource: string | null; scope: string }>();
  /** Each live token and the scopes it was granted. */
  const access = new Map<string, string[]>();
  const refresh = new Map<string, string[]>();
  const log = { registrations: 0, authorize: [] as URLSearchParams[], token: [] as URLSearchParams[], mcpUnauthorized: 0, insufficientScope: 0 };
  const random = () => randomBytes(16).toString("hex");
  const issue = (scopes: string[] = []) => {
    const tokens = { access_token: `at-${random()}`, refresh_token: `rt-${random()}`, token_type: "Bearer", expires_in: 3600 };
    access.set(tokens.access_token, scopes);
    refresh.set(tokens.refresh_token, scopes);
    return Response.json(tokens, { headers: { "cache-control": "no-store" } });
  };
  const oauthError = (error: string, status = 400) => Response.json({ error }, { status });

  let base = "";
  const server: { port?: number; stop(force: boolean): void } = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const url = new URL(request.url);
      if (opts.bare && url.pathname !== "/mcp") return new Response("not found", { status: 404 });
      switch (url.pathname) {
        case "/.well-known/oauth-protected-resource/mcp":
          return Response.json({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ["mcp:read", "mcp:write"] });
        case "/.well-known/oauth-authorization-server":
          return Response.json({
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            response_types_supported: ["code"],
            grant_types_supported: ["authorization_code", "refresh_token"],
            token_endpoint_auth_methods_supported: opts.m2m ? [opts.m2m.method] : ["none"],
            authorization_response_iss_parameter_supported: true,
            ...(opts.noPkceMethods ? {} : { code_challenge_methods_supported: ["S256"] }),
          });
        case "/register": {
          const body = (await request.json()) as { redirect_uris?: string[] };
          if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0) return oauthError("invalid_redirect_uri");
          log.registrations++;
          const client_id = `client-${random()}`;
          clients.set(client_id, { redirect_uris: body.redirect_uris });
          return Response.json({ ...body, client_id, client_id_issued_at: Math.floor(Date.now() / 1000) }, { status: 201 });
        }
        case "/authorize": {
          const q = url.searchParams;
          log.authorize.push(q);
          const client = clients.get(q.get("client_id") ?? "");
          const redirectUri = q.get("redirect_uri") ?? "";
          if (!client || !client.redirect_uris.includes(redirectUri)) return new Response("unknown client or redirect_uri", { status: 400 });
          if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) return new Response("PKCE S256 required", { status: 400 });
          const code = `code-${random()}`;
          codes.set(code, { challenge: q.get("code_challenge")!, redirectUri, clientId: q.get("client_id")!, resource: q.get("resource"), scope: q.get("scope") ?? "" });
          const back = new URL(redirectUri);
          back.searchParams.set("code", code);
          if (q.get("state")) back.searchParams.set("state", q.get("state")!);
          back.searchParams.set("iss", opts.wrongIss ?? base);
          return new Response(null, { status: 302, headers: { location: back.href } });
        }
        case "/token": {
          const form = new URLSearchParams(await request.text());
          log.token.push(form);
          if (form.get("grant_type") === "authorization_code") {
            const grant = codes.get(form.get("code") ?? "");
            codes.delete(form.get("code") ?? "");
            if (!grant || grant.clientId !== form.get("client_id") || grant.redirectUri !== form.get("redirect_uri")) return oauthError("invalid_grant");
            const verifier = form.get("code_verifier") ?? "";
            if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return oauthError("invalid_grant");
            return issue(grant.scope.split(" ").filter(Boolean));
          }
          if (form.get("grant_type") === "client_credentials" && opts.m2m) {
            const basic = request.headers.get("authorization");
            const expectedBasic = `Basic ${btoa(`${encodeURIComponent(opts.m2m.id)}:${encodeURIComponent(opts.m2m.secret)}`)}`;
            const ok =
              opts.m2m.method === "client_secret_basic"
                ? basic === expectedBasic && !form.has("client_secret")
                : !basic && form.get("client_id") === opts.m2m.id && form.get("client_secret") === opts.m2m.secret;
            return ok ? issue() : oauthError("invalid_client", 401);
          }
          if (form.get("grant_type") === "refresh_token") {
            const scopes = refresh.get(form.get("refresh_token") ?? "");
            if (!scopes || !refresh.delete(form.get("refresh_token") ?? "")) return oauthError("invalid_grant");
            return issue(scopes);
          }
          return oauthError("unsupported_grant_type");
        }
        case "/mcp": {
          const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
          if (!bearer || !access.has(bearer)) {
            log.mcpUnauthorized++;
            return new Response(JSON.stringify({ error: "invalid_token", error_description: "Missing Authorization header" }), {
              status: 401,
              headers: { "www-authenticate": opts.bare ? "Bearer" : `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`, "content-type": "application/json" },
            });
          }
          if (request.method === "GET") return new Response("no stream here", { status: 405 });
          if (request.method === "DELETE") return new Response(null, { status: 204 });
          const message = (await request.json()) as Parameters<typeof answer>[0];
          const needed = opts.neverEnough ?? (opts.stepUp && message.method === "tools/call" && !access.get(bearer)!.includes(opts.stepUp) ? `mcp:read ${opts.stepUp}` : undefined);
          if (needed) {
            log.insufficientScope++;
            return new Response(JSON.stringify({ error: "insufficient_scope" }), {
              status: 403,
              headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`, "content-type": "application/json" },
            });
          }
          const reply = answer(message, {});
          if (!reply) return new Response(null, { status: 202 });
          return Response.json(reply, { headers: { "mcp-session-id": "oauth-session" } });
        }
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  return {
    url: `${base}/mcp`,
    log,
    /** Every access token stops working (as if they expired); refresh tokens still work. */
    expireAccessTokens: () => access.clear(),
    stop: () => server.stop(true),
  };
}
