/**
 * What shiro keeps of an MCP server's OAuth sign-in: the client it registered (and the loopback
 * port it registered with), the tokens, and what discovery found. One file per server in
 * `$SHIRO_HOME/mcp-oauth/<server>.json`, mode 0600, written atomically; never in the config, a
 * session or a log. A record made for another URL than the server's configured one is ignored,
 * so moving a server to a new address never sends it the old one's tokens. Read defensively: a
 * file that cannot be read or parsed counts as no sign-in.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeStateFileSync } from "../fs/atomic-write.ts";

export type OAuthRecord = {
  /** The server URL this record was made for. */
  url: string;
  /** The loopback port the client was registered with (its redirect URI is http://127.0.0.1:<port>/callback). */
  port?: number;
  client?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  /** When the tokens were received (ms since the epoch), for their `expires_in`. */
  tokensAt?: number;
  verifier?: string;
  discovery?: Record<string, unknown>;
};

export function oauthDir(home: string): string {
  return join(home, "mcp-oauth");
}

function recordPath(home: string, server: string): string {
  return join(oauthDir(home), `${server}.json`);
}

/** The stored record for this server at this URL, or a fresh empty one. */
export function readOAuthRecord(home: string, server: string, url: string): OAuthRecord {
  try {
    const parsed = JSON.parse(readFileSync(recordPath(home, server), "utf8")) as unknown;
    if (typeof parsed === "object" && parsed !== null && (parsed as OAuthRecord).url === url) return parsed as OAuthRecord;
  } catch {
    // none, or unreadable: not signed in
  }
  return { url };
}

export function writeOAuthRecord(home: string, server: string, record: OAuthRecord): void {
  mkdirSync(oauthDir(home), { recursive: true, mode: 0o700 });
  writeStateFileSync(recordPath(home, server), JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
}

/** Forgets a server's sign-in; true when there was one. */
export function removeOAuthRecord(home: string, server: string): boolean {
  try {
    rmSync(recordPath(home, server));
    return true;
  } catch {
    return false;
  }
}
