import type { SecretStore } from "../lib/mcp/index.ts";

/**
 * The system's secret store for MCP sign-in tokens: `Bun.secrets` (the macOS Keychain, the
 * Windows Credential Manager, libsecret's Secret Service on Linux). Undefined when
 * `SHIRO_MCP_TOKEN_STORE=file` asks for the 0600 file in `$SHIRO_HOME` instead (the tests set it,
 * so they never touch a real keychain). A store that is there but does not work (Linux without
 * libsecret or a running Secret Service) throws, and lib/mcp/token-vault.ts falls back to the file.
 */
/** `{ secrets }` for the options of lib/mcp, or nothing when the file is asked for. */
export function withSecrets(env: Record<string, string | undefined>): { secrets?: SecretStore } {
  const secrets = systemSecretStore(env);
  return secrets ? { secrets } : {};
}

export function systemSecretStore(env: Record<string, string | undefined>): SecretStore | undefined {
  if (env.SHIRO_MCP_TOKEN_STORE === "file") return undefined;
  return {
    get: (key) => Bun.secrets.get(key),
    set: (entry) => Bun.secrets.set(entry),
    delete: (key) => Bun.secrets.delete(key),
  };
}
