import type { ServerStatus } from "./manager.ts";
import { describeSignIn } from "./sign-in-state.ts";

/** `/mcp` and `shiro doctor`: one line per server with its state, sign-in, tool count and error. Pure. */
export function describeStatus(servers: readonly ServerStatus[], opts: { login?: string } = {}): string[] {
  if (servers.length === 0) return ["No MCP servers are configured. See shiro help extending (MCP servers)."];
  return servers.map((s) => {
    const from = s.source === "project" ? ".mcp.json" : "config";
    const head = `${s.name} (${s.transport}, from ${from}): `;
    const signIn = s.signIn && s.signIn !== "signed-in" ? ` (${describeSignIn(s.signIn, `${opts.login ?? "shiro mcp login"} ${s.name}`)})` : "";
    switch (s.state) {
      case "connected":
        return head + `connected, ${s.signedIn || s.signIn === "signed-in" ? "signed in, " : ""}${s.tools} ${s.tools === 1 ? "tool" : "tools"}${s.restarted ? " (restarted once)" : ""}${signIn}`;
      case "starting":
        return head + `starting…${signIn}`;
      case "failed":
        // A sign-in it needs is said by its error, with the command that signs in here.
        return head + `failed: ${s.signIn ? (s.error ?? "").replaceAll("shiro mcp login", opts.login ?? "shiro mcp login") : (s.error ?? "unknown error")}`;
      case "disabled":
        return head + 'disabled ("enabled": false)';
      default:
        return s.state satisfies never;
    }
  });
}
