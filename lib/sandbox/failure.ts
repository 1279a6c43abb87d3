const READ_ONLY = /Read-only file system|\bEROFS\b/;
/** A write to git's configuration (kept read-only: git-shield.ts), or a rename of a git folder, which its mount forbids. */
const GIT_CONFIG = /could not lock config file|\.git\/(?:config|hooks|info|commondir|worktrees|modules)|cannot move '[^']*\.git'.*(?:busy|Read-only)/;
const NO_NETWORK = /Could not resolve host|Temporary failure in name resolution|Network is unreachable|\bENOTFOUND\b|\bEAI_AGAIN\b|\bENETUNREACH\b|getaddrinfo/;
const SSH = /Host key verification failed|Permission denied \(publickey|\.ssh\/|ssh-agent|SSH_AUTH_SOCK/;

/**
 * Why a command that failed (`exitCode` not 0) looks stopped by the sandbox, as a clause ("it
 * wrote outside the workspace, which the sandbox keeps read-only"), or undefined when nothing in
 * its output points at the sandbox. Read from the output only, so it can be wrong either way; it
 * decides whether the interactive loop offers to run the command once outside, never anything
 * more. A secrets file the sandbox masks ("Permission denied") is never a reason: it is refused
 * outside the sandbox too.
 */
export function sandboxFailure(output: string, exitCode: number | null, opts: { network: boolean; hidden: readonly string[] }): string | undefined {
  if (exitCode === 0) return undefined;
  if ((READ_ONLY.test(output) || /Device or resource busy/.test(output)) && GIT_CONFIG.test(output)) {
    return "it tried to change git's configuration or hooks, which the sandbox keeps read-only so that nothing a command plants there runs on this machine later";
  }
  if (READ_ONLY.test(output)) return "it tried to write outside the workspace, which the sandbox keeps read-only (config \"sandboxWritable\" opens a path)";
  if (!opts.network && NO_NETWORK.test(output)) return "it needed the network, which the sandbox has switched off (--no-network, config \"sandboxNetwork\")";
  if (SSH.test(output)) return "it needed ~/.ssh or the ssh agent, which the sandbox hides (config \"sandboxReadable\": [\"~/.ssh\"] shows it)";
  const hidden = opts.hidden.find((path) => output.includes(path));
  if (hidden) return `it needed ${hidden}, which the sandbox hides (config "sandboxReadable" shows it)`;
  return undefined;
}

/** The reason's first clause, for a one-line result: "it tried to write outside the workspace". */
export function shortSandboxReason(why: string): string {
  return why.replace(/, which .*$/, "");
}
