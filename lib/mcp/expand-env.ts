import type { OAuthSettings } from "../config/mcp-schema.ts";

/**
 * `${VAR}` and `${VAR:-default}` in a server's command, arguments, env, URL and headers, read
 * from shiro's own environment, as `.mcp.json` files elsewhere write them (a token kept out of
 * the file: `"Authorization": "Bearer ${GITHUB_TOKEN}"`). An unset variable without a default
 * becomes empty and is named in `missing`. Pure.
 */
export function expandEnv(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return "";
  });
}

export function expandAll(record: Record<string, string> | undefined, env: Record<string, string | undefined>, missing: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, expandEnv(value, env, missing)]));
}

/** A server's `oauth` entry with `${VAR}` filled in its client id, secret and metadata URL. */
export function expandOAuth(settings: OAuthSettings | undefined, env: Record<string, string | undefined>, missing: Set<string>): OAuthSettings | undefined {
  if (!settings) return undefined;
  const out: OAuthSettings = { ...settings };
  if (settings.clientId !== undefined) out.clientId = expandEnv(settings.clientId, env, missing);
  if (settings.clientSecret !== undefined) out.clientSecret = expandEnv(settings.clientSecret, env, missing);
  if (settings.clientMetadataUrl !== undefined) out.clientMetadataUrl = expandEnv(settings.clientMetadataUrl, env, missing);
  return out;
}
