import { describeStatus } from "../../lib/mcp/describe-status.ts";
import { openInBrowser } from "../open-browser.ts";
import type { CommandEnv } from "./commands.ts";

const USAGE = "usage: /mcp (list the servers) · /mcp login <server> · /mcp logout <server>";

/**
 * `/mcp`: the servers with their state, sign-in and tools. `/mcp login <server>` signs in to a
 * remote server in the loop: the address is printed and opened in the browser, and the command
 * waits for the browser to come back to the loopback callback while the loop goes on taking
 * keys (typing queues; esc stops the wait). Once signed in the server is connected again and its
 * tools join the next request. `/mcp logout <server>` forgets the sign-in and reconnects it.
 */
export async function mcpCommand(args: string, env: CommandEnv): Promise<void> {
  const { theme } = env;
  const mcp = env.session.runtime().mcp;
  const [action, name, ...rest] = args.trim().split(/\s+/).filter(Boolean);
  if (!action) return env.print(mcpReport(env));
  if ((action !== "login" && action !== "logout") || !name || rest.length > 0) return env.print(theme.warn(USAGE));
  const entry = mcp?.entry(name);
  if (!mcp || !entry) {
    const names = mcp?.names ?? [];
    return env.print(theme.warn(`no MCP server named "${name}" is configured${names.length ? ` (configured: ${names.join(", ")})` : ""}; see shiro help extending (MCP servers).`));
  }
  if (action === "logout") {
    const had = await mcp.signOut(name);
    return env.print(had ? `Signed out of "${name}": its tokens are forgotten.` : `"${name}" had no sign-in to forget.`);
  }
  if (!("url" in entry.config)) return env.print(theme.warn(`"${name}" is a local server (a "command"); only remote servers (a "url") sign in.`));
  try {
    const result = await mcp.signIn(
      name,
      async (url) => {
        env.print(`To sign in to "${name}", open this address in your browser:\n  ${url.href}\n${theme.dim("Waiting for the browser to come back (esc stops)…")}`);
        openInBrowser(url.href, process.env);
      },
      env.signal,
      (line) => env.print(theme.warn(line)),
    );
    const state = mcp.status().find((s) => s.name === name);
    const now = state?.state === "connected" ? `connected, ${state.tools} ${state.tools === 1 ? "tool" : "tools"}, offered from the next request on` : `not connected: ${state?.error ?? state?.state}`;
    env.print(result.notNeeded ? `"${name}" answered without a sign-in; there is nothing to sign in to (${now}).` : `${result.already ? `"${name}" was already signed in` : `Signed in to "${name}"`}; ${now}.`);
  } catch (error) {
    if (env.signal.aborted) return env.print(theme.warn(`Sign-in to "${name}" stopped.`));
    env.print(theme.error(`could not sign in to "${name}": ${error instanceof Error ? error.message : String(error)}`));
  }
}

function mcpReport(env: CommandEnv): string {
  const { theme } = env;
  const mcp = env.session.runtime().mcp;
  if (!mcp) return describeStatus([])[0]!;
  const offered = mcp.tools().map((t) => t.name);
  const lazy = offered.includes("mcp_search") ? theme.dim("Many tools: the model gets them through mcp_search and mcp_call.") : "";
  return [theme.bold("MCP servers"), ...describeStatus(mcp.status(), { login: "/mcp login" }).map((line) => "  " + line), lazy].filter(Boolean).join("\n");
}
