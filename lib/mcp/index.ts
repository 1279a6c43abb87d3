/**
 * MCP servers for a session: which may start (plan.ts, with the trust store for a project's own
 * `.mcp.json`), and the manager that runs them (manager.ts). Importing this loads neither the SDK
 * nor any server: connect.ts loads the SDK at the first connection.
 */
import type { Elicitor } from "./elicitation.ts";
import type { SecretStore } from "./token-vault.ts";
import { createMcpManager, type McpManager, type McpServerEntry } from "./manager.ts";

export { planMcpServers, untrustedNotice, withProjectServers, type McpPlan, type ProjectQuestion } from "./plan.ts";
export { trustProject } from "./trust-store.ts";
export type { McpManager, ServerStatus } from "./manager.ts";
export { describeStatus } from "./describe-status.ts";
export type { SecretStore } from "./token-vault.ts";
export { askElicitation, type FormIo } from "./elicitation-form.ts";
export { describeField, fieldsOf, parseFieldAnswer, type ElicitAnswer, type ElicitField, type ElicitQuestion, type Elicitor } from "./elicitation.ts";

/** How long `shiro -p` waits for its servers before the one turn it has starts. */
export const HEADLESS_WAIT_MS = 10_000;

/** Starts the servers in the background; undefined when there are none (nothing loaded, nothing started). */
export function startMcp(servers: readonly McpServerEntry[], opts: { root: string; home: string; secrets?: SecretStore; env: Record<string, string | undefined>; version: string; elicit?: Elicitor }): McpManager | undefined {
  if (servers.length === 0) return undefined;
  return createMcpManager({
    servers,
    ...opts,
    connect: async (name, config, connectOpts) => (await import("./connect.ts")).connectServer(name, config, connectOpts),
  });
}
