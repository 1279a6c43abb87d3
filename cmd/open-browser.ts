/**
 * The command that opens `url` in a browser: `$BROWSER <url>` when set (words split on spaces),
 * else the system's opener where there is a display; undefined when there is none, or when the
 * address is not http(s). The address comes from an MCP server's metadata, so it is never handed
 * to a shell: on Windows `rundll32 url.dll,FileProtocolHandler` opens it (`cmd /c start` would
 * read the `&` of its query as a command separator), and any other scheme (`file:`, a custom
 * protocol handler) is not opened at all. Pure.
 */
export function browserCommand(url: string, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string[] | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  const href = parsed.href;
  if (env.BROWSER?.trim()) return [...env.BROWSER.trim().split(/\s+/), href];
  if (platform === "darwin") return ["open", href];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", href];
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ["xdg-open", href] : undefined;
}

/** Opens `url` with browserCommand's command; never waits for it. The address is printed by the caller either way. */
export function openInBrowser(url: string, env: Record<string, string | undefined>): void {
  const command = browserCommand(url, env);
  if (!command) return;
  try {
    Bun.spawn(command, { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  } catch {
    // no browser could start: the address printed above is the way
  }
}
