import { trustStore } from "../fs/trust-store.ts";

/** The trusted projects' `.mcp.json` files, in `$SHIRO_HOME/mcp-trust.json` (lib/fs/trust-store.ts). */
const mcpTrust = (home: string) => trustStore(home, "mcp-trust.json", ".mcp.json");

export function trustFilePath(home: string): string {
  return mcpTrust(home).path;
}

/** Whether this project's `.mcp.json`, with exactly this content, was trusted. Never throws. */
export function isProjectTrusted(home: string, projectRoot: string, sha256: string): { trusted: boolean; notice?: string } {
  return mcpTrust(home).isTrusted(projectRoot, sha256);
}

/** Remembers that the user trusts this content of the project's `.mcp.json` (replacing an earlier answer). */
export function trustProject(home: string, projectRoot: string, sha256: string, now: Date = new Date()): void {
  mcpTrust(home).trust(projectRoot, sha256, now);
}
