import pkg from "../package.json" with { type: "json" };
import { configPath, loadConfigFile, shiroHome } from "../lib/config/load.ts";
import { isStdio } from "../lib/config/mcp-schema.ts";
import { ShiroError } from "../lib/errors.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { planMcpServers } from "../lib/mcp/index.ts";
import { signIn } from "../lib/mcp/login.ts";
import { forgetSignIn } from "../lib/mcp/token-vault.ts";
import { COMMON_FLAGS, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";
import { openInBrowser } from "./open-browser.ts";
import { withSecrets } from "./token-store.ts";

const USAGE = "usage: shiro mcp login <server>   (sign in to a remote MCP server with OAuth)\n       shiro mcp logout <server>  (forget that sign-in)";

/** `shiro mcp`'s flags. */
export const MCP_FLAGS = { ...COMMON_FLAGS } as const satisfies FlagTable;

/**
 * `shiro mcp login <server>`: the one place shiro opens a browser for an MCP server. Prints the
 * URL (always, so it works where no browser can start), opens it with `$BROWSER <url>` or the
 * system's opener when there is a display, and waits for the redirect to the loopback callback.
 * Sessions never do this themselves: they use what was signed in here, and refresh it.
 * `shiro mcp logout <server>` forgets the tokens and the registered client.
 * Exit 0 when signed in (or out), 1 when the sign-in failed, 2 for usage.
 */
export async function runMcpCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseFlags(argv, MCP_FLAGS, "shiro mcp");
  if (args.help) {
    process.stdout.write(commandHelp(USAGE, MCP_FLAGS));
    return 0;
  }
  const [action, name, ...rest] = args._;
  if ((action !== "login" && action !== "logout") || !name || rest.length > 0) throw new ShiroError("usage", USAGE);
  const home = shiroHome(env);
  const config = await loadConfigFile(configPath(home));
  const plan = planMcpServers({ config, home, root: findProjectRoot(process.cwd()) });
  const server = plan.servers.find((s) => s.name === name);
  if (!server) {
    const names = plan.servers.map((s) => s.name);
    throw new ShiroError("usage", `no MCP server named "${name}" is configured${names.length ? ` (configured: ${names.join(", ")})` : ""}; see shiro help extending (MCP servers).`);
  }
  if (action === "logout") {
    process.stdout.write((await forgetSignIn(home, name, withSecrets(env).secrets)) ? `Signed out of "${name}": its tokens are forgotten.\n` : `"${name}" had no sign-in to forget.\n`);
    return 0;
  }
  if (isStdio(server.config)) throw new ShiroError("usage", `"${name}" is a local server (a "command"); only remote servers (a "url") sign in.`);
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error("stopped"));
  process.once("SIGINT", onSignal);
  try {
    const result = await signIn(name, server.config, {
      home,
      ...withSecrets(env),
      env,
      version: pkg.version,
      notice: (line) => process.stderr.write(`shiro: ${line}\n`),
      signal: stop.signal,
      open: async (url) => {
        process.stderr.write(`To sign in to "${name}", open this address in your browser:\n  ${url.href}\nWaiting for the browser to come back (Ctrl-C stops)…\n`);
        openInBrowser(url.href, env);
      },
    });
    const tools = `${result.tools} ${result.tools === 1 ? "tool" : "tools"}`;
    process.stdout.write(
      result.notNeeded ? `"${name}" answered without a sign-in (${tools}); there is nothing to sign in to.\n` : result.already ? `"${name}" is already signed in (${tools}).\n` : `Signed in to "${name}" (${tools}).\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`shiro: could not sign in to "${name}": ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
  }
}
