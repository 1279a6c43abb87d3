import { shiroHome } from "../config/load.ts";
import { openCommands, type Commands } from "../sandbox/index.ts";

const byRoot = new Map<string, Commands>();

/**
 * Where a tool built without a session's Commands (tests, digests) runs programs: directly on this
 * machine, helpers resolved against `root`, no key in the environment. One per root.
 */
export function defaultCommands(root: string): Commands {
  let commands = byRoot.get(root);
  if (!commands) {
    const env = process.env;
    commands = openCommands({
      settings: { mode: "off", network: true, writable: [], readable: [] },
      root,
      shiroHome: shiroHome(env),
      env,
      apiKey: undefined,
    });
    byRoot.set(root, commands);
  }
  return commands;
}
