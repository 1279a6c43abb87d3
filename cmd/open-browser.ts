/** `$BROWSER <url>` when set (words split on spaces), else the system's opener where there is a display; never waits for it. */
export function openInBrowser(url: string, env: Record<string, string | undefined>): void {
  const command = env.BROWSER?.trim()
    ? [...env.BROWSER.trim().split(/\s+/), url]
    : process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ["xdg-open", url]
          : undefined;
  if (!command) return;
  try {
    Bun.spawn(command, { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  } catch {
    // no browser could start: the address printed above is the way
  }
}
