import type { Hooks } from "./hooks.ts";

/**
 * /hooks: each configured command with its event, matcher, where it comes from and how it last
 * ended; or how to add one. `off` says why none run (--no-hooks, disableAllHooks).
 */
export function describeHooks(hooks: Hooks | undefined, off?: string): string[] {
  if (off) return [`Hooks are off (${off}).`];
  const listing = hooks?.listing() ?? [];
  if (listing.length === 0) return ['No hooks. Add them under "hooks" in your config file or a trusted .shiro/settings.json; shiro help hooks shows how.'];
  return listing.map(({ command, last }) => {
    const matcher = command.matcher && command.matcher !== "*" ? ` [${command.matcher}]` : "";
    const ran = last
      ? `last: ${last.exitCode === null ? "stopped" : `exit ${last.exitCode}`}${last.decision ? `, ${last.decision}` : ""}${last.reason ? ` (${oneLine(last.reason)})` : ""}, ${last.durationMs} ms`
      : "not run yet";
    return `${command.event}${matcher}  ${command.command}  · ${command.origin} · ${ran}`;
  });
}

function oneLine(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 80 ? line.slice(0, 79) + "…" : line;
}
