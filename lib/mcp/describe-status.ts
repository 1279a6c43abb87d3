import type { ServerStatus } from "./manager.ts";

/** `/mcp` and `shiro doctor`: one line per server with its state, tool count and error. Pure. */
export function describeStatus(servers: readonly ServerStatus[]): string[] {
  if (servers.length === 0) return ["No MCP servers are configured. See shiro help extending (MCP servers)."];
  return servers.map((s) => {
    const from = s.source === "project" ? ".mcp.json" : "config";
    const head = `${s.name} (${s.transport}, from ${from}): `;
    switch (s.state) {
      case "connected":
        return head + `connected, ${s.signedIn ? "signed in, " : ""}${s.tools} ${s.tools === 1 ? "tool" : "tools"}${s.restarted ? " (restarted once)" : ""}`;
      case "starting":
        return head + "starting…";
      case "failed":
        return head + `failed: ${s.error ?? "unknown error"}`;
      case "disabled":
        return head + 'disabled ("enabled": false)';
      default:
        return s.state satisfies never;
    }
  });
}
