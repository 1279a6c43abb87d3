/**
 * A remote server's OAuth sign-in as `/mcp` shows it, read from what oauth-store.ts keeps:
 * signed in; its token expired but a refresh token will get a new one without a browser; expired
 * with no way to refresh; or needed (the server asked for a sign-in shiro does not have). Local
 * servers, servers given an Authorization header and client-credentials servers have none.
 */
import { isStdio, type McpServerConfig } from "../config/mcp-schema.ts";
import { expandEnv } from "./expand-env.ts";
import { readOAuthRecord } from "./oauth-store.ts";

export type SignInState = "signed-in" | "expired-refreshable" | "expired" | "needed";

export function signInState(home: string, name: string, config: McpServerConfig, env: Record<string, string | undefined>, error: string | undefined, now = Date.now()): SignInState | undefined {
  if (isStdio(config) || config.oauth?.grant === "client_credentials") return undefined;
  if (Object.keys(config.headers ?? {}).some((key) => key.toLowerCase() === "authorization")) return undefined;
  // Only looks: a corrupt file is set aside (and said) by the connection that reads it.
  const { record } = readOAuthRecord(home, name, expandEnv(config.url, env, new Set()), { setAside: false });
  const asked = Boolean(error && /sign in|sign-in/.test(error));
  const tokens = record.tokens as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | undefined;
  // Tokens in the system's secret store are described by the file's `tokenInfo`; when the
  // connection could not use them (gone from the store, or the store unreadable) it asked for a sign-in.
  const held = record.secrets === "system" ? (record.tokenInfo && !asked ? { refresh: record.tokenInfo.refreshToken, expiresIn: record.tokenInfo.expiresIn } : undefined)
    : typeof tokens?.access_token === "string" ? { refresh: typeof tokens.refresh_token === "string", expiresIn: typeof tokens.expires_in === "number" ? tokens.expires_in : undefined } : undefined;
  if (held) {
    const expired = held.expiresIn !== undefined && record.tokensAt !== undefined && record.tokensAt + held.expiresIn * 1000 <= now;
    if (!expired) return "signed-in";
    return held.refresh ? "expired-refreshable" : "expired";
  }
  return asked ? "needed" : undefined;
}

/** The words `/mcp` puts after a server's state; `login` is the command that signs in to it. */
export function describeSignIn(state: SignInState, login: string): string {
  switch (state) {
    case "signed-in":
      return "signed in";
    case "expired-refreshable":
      return "token expired, refreshed at the next request";
    case "expired":
      return `token expired: ${login}`;
    case "needed":
      return `needs sign-in: ${login}`;
    default:
      return state satisfies never;
  }
}
