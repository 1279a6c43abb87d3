/**
 * The file half of what shiro keeps of an MCP server's OAuth sign-in: the client it registered
 * (and the loopback port it registered with), what discovery found, and either the tokens
 * themselves or, when they are in the system's secret store (token-vault.ts), a marker saying so
 * with what `/mcp` needs to describe them (whether a refresh token exists, `expires_in`). One file
 * per server in `$SHIRO_HOME/mcp-oauth/<server>.json`, mode 0600, written atomically; never in the
 * config, a session or a log. A record made for another URL than the server's configured one is
 * ignored, so moving a server to a new address never sends it the old one's tokens. A file that
 * cannot be parsed is moved aside (`.corrupt-<time>`), never silently overwritten, and the
 * caller gets a one-line notice to show.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { readJsonFile } from "../fs/read-json.ts";

const Json = v.record(v.string(), v.unknown());

const RecordSchema = v.object({
  /** The server URL this record was made for. */
  url: v.string(),
  /** The loopback port the client was registered with (its redirect URI is http://127.0.0.1:<port>/callback). */
  port: v.optional(v.number()),
  client: v.optional(Json),
  tokens: v.optional(Json),
  /** When the tokens were received (ms since the epoch), for their `expires_in`. */
  tokensAt: v.optional(v.number()),
  verifier: v.optional(v.string()),
  /** The scopes the last sign-in asked for (the authorization request's `scope`, or what the token response granted). */
  scope: v.optional(v.string()),
  /**
   * Scopes a server asked for since that sign-in (a 403 `insufficient_scope` in a session, which
   * never opens a browser): the next `shiro mcp login` asks for them too.
   */
  stepUp: v.optional(v.string()),
  discovery: v.optional(Json),
  /** "system": the tokens (and the client's secret, if any) are in the system's secret store, not here. */
  secrets: v.optional(v.literal("system")),
  /** With `secrets`: what is known of the tokens kept there, for `/mcp`. */
  tokenInfo: v.optional(v.object({ refreshToken: v.boolean(), expiresIn: v.optional(v.number()) })),
});

export type OAuthRecord = v.InferOutput<typeof RecordSchema>;

export function oauthDir(home: string): string {
  return join(home, "mcp-oauth");
}

export function recordPath(home: string, server: string): string {
  return join(oauthDir(home), `${server}.json`);
}

/**
 * The stored record for this server at this URL, or a fresh empty one. A corrupt file is moved
 * aside (unless `setAside` is false: `/mcp`'s listing only looks) and `notice` says so.
 */
export function readOAuthRecord(home: string, server: string, url: string, opts: { setAside?: boolean } = {}): { record: OAuthRecord; notice?: string } {
  const read = readJsonFile(recordPath(home, server), RecordSchema, { setAside: opts.setAside !== false });
  if (read.status === "ok" && read.value.url === url) return { record: read.value };
  if (read.status === "corrupt" && read.movedTo) {
    return { record: { url }, notice: `the sign-in kept for MCP server "${server}" could not be read (${read.reason}); it was moved to ${read.movedTo}` };
  }
  return { record: { url } };
}

/** The stored record whatever URL it was made for (logout forgets it either way), or undefined. */
export function readAnyOAuthRecord(home: string, server: string): OAuthRecord | undefined {
  const read = readJsonFile(recordPath(home, server), RecordSchema, { setAside: false });
  return read.status === "ok" ? read.value : undefined;
}

export function writeOAuthRecord(home: string, server: string, record: OAuthRecord): void {
  mkdirSync(oauthDir(home), { recursive: true, mode: 0o700 });
  writeStateFileSync(recordPath(home, server), JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
}

/** Deletes a server's sign-in file; true when there was one. */
export function removeOAuthRecord(home: string, server: string): boolean {
  try {
    rmSync(recordPath(home, server));
    return true;
  } catch {
    return false;
  }
}
