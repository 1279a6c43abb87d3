import pkg from "../package.json" with { type: "json" };
import type { ConfigFile } from "../lib/config/schema.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { describeStatus, planMcpServers, startMcp, untrustedNotice } from "../lib/mcp/index.ts";
import { DEFAULT_CONNECT_TIMEOUT_MS } from "../lib/mcp/manager.ts";
import { withSecrets } from "./token-store.ts";

/** How long doctor waits for the servers at most (each also has its own connect timeout). */
const DOCTOR_WAIT_MS = DEFAULT_CONNECT_TIMEOUT_MS;

/**
 * `shiro doctor`'s MCP lines: each server the session would start, started now, with its state,
 * tool count or error; a project `.mcp.json` that is not trusted is named and left alone. Empty
 * when nothing is configured (then the SDK is never loaded).
 */
export async function mcpDoctorReport(config: ConfigFile, home: string, cwd: string, env: Record<string, string | undefined>): Promise<string> {
  const root = findProjectRoot(cwd);
  const plan = planMcpServers({ config, home, root });
  const notices = [...plan.notices, ...(plan.question ? [untrustedNotice(plan.question, true)] : [])];
  const mcp = startMcp(plan.servers, { root, home, ...withSecrets(env), env, version: pkg.version });
  if (!mcp && notices.length === 0) return "";
  const lines = ["MCP servers:"];
  if (mcp) {
    await mcp.settled(DOCTOR_WAIT_MS);
    lines.push(...describeStatus(mcp.status()).map((line) => "  " + line));
    await mcp.close();
  }
  lines.push(...notices.map((notice) => "  " + notice));
  return lines.join("\n") + "\n";
}
