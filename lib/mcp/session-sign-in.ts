/**
 * `/mcp login` and `/mcp logout` for a running session's manager: sign in to a remote server
 * (login.ts, the same flow as `shiro mcp login`) or forget its sign-in, then connect it again so
 * its tools (or its need of a sign-in) are current from the next request on.
 */
import { isStdio } from "../config/mcp-schema.ts";
import { signIn, type SignInResult } from "./login.ts";
import type { McpManager } from "./manager.ts";
import { forgetSignIn, type SecretStore } from "./token-vault.ts";

type Base = Pick<McpManager, "entry" | "reconnect">;

export function signInMethods(manager: Base, opts: { home: string; secrets?: SecretStore; env: Record<string, string | undefined>; version: string }) {
  const named = (name: string) => {
    const entry = manager.entry(name);
    if (!entry) throw new Error(`no MCP server named "${name}" is configured`);
    return entry;
  };
  return {
    async signIn(name: string, open: (url: URL) => Promise<void>, signal: AbortSignal, notice?: (line: string) => void): Promise<SignInResult> {
      const { config } = named(name);
      if (isStdio(config)) throw new Error(`"${name}" is a local server (a "command"); only remote servers (a "url") sign in`);
      const result = await signIn(name, config, { home: opts.home, ...(opts.secrets ? { secrets: opts.secrets } : {}), env: opts.env, version: opts.version, open, signal, ...(notice ? { notice } : {}) });
      await manager.reconnect(name);
      return result;
    },
    async signOut(name: string): Promise<boolean> {
      const { config } = named(name);
      const had = await forgetSignIn(opts.home, name, opts.secrets);
      if (!isStdio(config)) await manager.reconnect(name);
      return had;
    },
  };
}
