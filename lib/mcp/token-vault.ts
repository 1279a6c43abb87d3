/**
 * Where an MCP server's OAuth secrets live. The secret parts of a sign-in (the token set, with
 * its access and refresh tokens, and a registered client's `client_secret`) go to the system's
 * secret store when shiro has one that works (`Bun.secrets`: the macOS Keychain, the Windows
 * Credential Manager, libsecret's Secret Service on Linux; cmd/ builds it and hands it in), and
 * the file (oauth-store.ts) keeps only the rest with a marker saying where they are. Without a
 * store, or when it fails, the file keeps everything, mode 0600, as before: silently, as
 * docs/extending.md says. One entry per server and shiro home, holding the server URL it was made
 * for: a changed URL never gets the old tokens.
 */
import { readOAuthRecord, removeOAuthRecord, writeOAuthRecord, type OAuthRecord } from "./oauth-store.ts";

export type SecretKey = { service: string; name: string };

/** The shape of `Bun.secrets`, so tests can hand in one kept in memory. */
export type SecretStore = {
  get(key: SecretKey): Promise<string | null>;
  set(entry: SecretKey & { value: string }): Promise<void>;
  delete(key: SecretKey): Promise<boolean>;
};

export const SECRET_SERVICE = "shiro MCP sign-in";

/** The store's entry for a server: its name and the shiro home it belongs to. */
export function secretKey(home: string, server: string): SecretKey {
  return { service: SECRET_SERVICE, name: `${server} (${home})` };
}

type Secret = { url: string; tokens?: Record<string, unknown>; clientSecret?: string };

function secretOf(record: OAuthRecord): Secret | undefined {
  const clientSecret = typeof record.client?.["client_secret"] === "string" ? (record.client["client_secret"] as string) : undefined;
  if (!record.tokens && !clientSecret) return undefined;
  return { url: record.url, ...(record.tokens ? { tokens: record.tokens } : {}), ...(clientSecret ? { clientSecret } : {}) };
}

function parseSecret(value: string | null): Secret | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<Secret> | null;
    return parsed && typeof parsed.url === "string" ? (parsed as Secret) : undefined;
  } catch {
    return undefined;
  }
}

/** A record as the file keeps it when its secrets are in the system store. */
function publicPart(record: OAuthRecord): OAuthRecord {
  const { tokens, client, secrets: _where, tokenInfo: _info, ...rest } = record;
  const { client_secret: _secret, ...publicClient } = client ?? {};
  const expiresIn = typeof tokens?.["expires_in"] === "number" ? { expiresIn: tokens["expires_in"] as number } : {};
  return {
    ...rest,
    ...(client ? { client: publicClient } : {}),
    secrets: "system",
    ...(tokens ? { tokenInfo: { refreshToken: typeof tokens["refresh_token"] === "string", ...expiresIn } } : {}),
  };
}

function plain(record: OAuthRecord): OAuthRecord {
  const { secrets: _where, tokenInfo: _info, ...rest } = record;
  return rest;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One server's sign-in, read and kept across the file and the store; `store` undefined means the file only. */
export function createTokenVault(home: string, server: string, store: SecretStore | undefined) {
  const key = secretKey(home, server);
  /** What the store holds for this server as far as this vault knows (undefined: nothing known). */
  let stored: string | undefined;
  let queue: Promise<void> = Promise.resolve();
  return {
    /**
     * The full record for this URL: the file's, with its secrets from the store when it says they
     * are there. Secrets the store no longer has count as no sign-in (and the file stops saying
     * otherwise); a store that cannot be read counts as no sign-in this time. `notice` says which.
     */
    async read(url: string): Promise<{ record: OAuthRecord; notice?: string }> {
      const { record, notice } = readOAuthRecord(home, server, url);
      if (record.secrets !== "system") return { record, ...(notice ? { notice } : {}) };
      const bare: OAuthRecord = { url, ...(record.discovery ? { discovery: record.discovery } : {}) };
      if (!store) return { record: bare, notice: "its tokens are in the system's secret store, which is turned off here (SHIRO_MCP_TOKEN_STORE=file)" };
      let value: string | null;
      try {
        value = await store.get(key);
      } catch (error) {
        return { record: bare, notice: `its tokens are in the system's secret store, which could not be read (${message(error)})` };
      }
      const secret = parseSecret(value);
      if (!secret || secret.url !== url) {
        try {
          writeOAuthRecord(home, server, bare);
        } catch {
          // The file still points to the store; the next sign-in rewrites it.
        }
        return { record: bare, notice: "its tokens are no longer in the system's secret store" };
      }
      stored = value!;
      const { client, ...rest } = plain(record);
      return {
        record: {
          ...rest,
          ...(secret.tokens ? { tokens: secret.tokens } : {}),
          ...(client ? { client: secret.clientSecret ? { ...client, client_secret: secret.clientSecret } : client } : {}),
        },
      };
    },
    /** Keeps a full record; calls run one after another, in order. */
    keep(record: OAuthRecord): Promise<void> {
      const run = queue.then(() => keepNow(record));
      queue = run.catch(() => {}); // one failed write (said to its caller) does not stop the next
      return run;
    },
  };

  async function keepNow(record: OAuthRecord): Promise<void> {
    const secret = secretOf(record);
    if (store && secret) {
      const value = JSON.stringify(secret);
      try {
        if (value !== stored) await store.set({ ...key, value });
        stored = value;
        writeOAuthRecord(home, server, publicPart(record));
        return;
      } catch {
        // No working system store: the file keeps it all, mode 0600 (docs/extending.md).
      }
    }
    writeOAuthRecord(home, server, plain(record));
    if (store && stored !== undefined) {
      stored = undefined;
      await store.delete(key).catch(() => false);
    }
  }
}

/** Forgets a server's sign-in, in the file and in the store; true when there was one. */
export async function forgetSignIn(home: string, server: string, store: SecretStore | undefined): Promise<boolean> {
  const hadFile = removeOAuthRecord(home, server);
  const hadSecret = store ? await store.delete(secretKey(home, server)).catch(() => false) : false;
  return hadFile || hadSecret;
}
