/**
 * The two programs from the host that change what shiro does: bubblewrap (the sandbox every
 * command runs in) and ripgrep (the grep tool's fast back end). The suite passes on a machine with
 * both and on one with neither, by one rule, kept here:
 *
 * - A spec that is not about the sandbox runs shiro with the sandbox off (`SHIRO_SANDBOX=off`, the
 *   same as `--no-sandbox`) on every machine, so what it sees never depends on whether bubblewrap
 *   is installed (a machine without it would add a "sandbox unavailable" notice to every run).
 *   shiroEnv (cli.ts) and the terminal specs' start (spec/repl/pty.ts) put HOST_INDEPENDENT_ENV in
 *   every environment they build.
 * - A spec about the sandbox passes SANDBOX_AS_THE_HOST_HAS_IT in its env (the sandbox as a user
 *   gets it: on where bubblewrap works, unavailable where not) and skips, saying why on stderr,
 *   when sandboxUnavailable() says the sandbox cannot run here.
 * - A spec that needs ripgrep skips, saying why, when ripgrepPath() finds none.
 *
 * Skipped specs are counted in the closing `N passed, N failed, N skipped` line (scripts/test.ts).
 * CI (.ci/run) still fails when bubblewrap is missing, so the sandbox specs do run there.
 */
import { detectSandbox } from "../../lib/sandbox/detect.ts";
import { findHelper } from "../../lib/sandbox/helpers.ts";

/**
 * What every shiro under test gets, unless its spec says otherwise: the sandbox off, and MCP
 * sign-in tokens in the 0600 file in its own SHIRO_HOME, never in this machine's keychain or
 * Secret Service (docs/extending.md, SHIRO_MCP_TOKEN_STORE).
 */
export const HOST_INDEPENDENT_ENV = { SHIRO_SANDBOX: "off", SHIRO_MCP_TOKEN_STORE: "file" } as const;

/** For the specs about the sandbox: shiro decides, as it does for a user (on, or unavailable with its notice). */
export const SANDBOX_AS_THE_HOST_HAS_IT: { readonly SHIRO_SANDBOX: undefined } = { SHIRO_SANDBOX: undefined };

/** A folder outside every workspace, so that findHelper looks at PATH alone. */
const NO_WORKSPACE = "/nonexistent-workspace";

let sandboxWhy: string | undefined | null = null;

/** Why the sandbox cannot run here (with the fix), or undefined when bubblewrap works. Asked once. */
export function sandboxUnavailable(): string | undefined {
  if (sandboxWhy === null) {
    const support = detectSandbox(findHelper("bwrap", { path: process.env.PATH, root: NO_WORKSPACE }));
    sandboxWhy = support.available ? undefined : `${support.why} (${support.fix})`;
  }
  return sandboxWhy;
}

/** ripgrep as shiro would find it on this PATH, or null when it is not installed. */
export function ripgrepPath(): string | null {
  return findHelper("rg", { path: process.env.PATH, root: NO_WORKSPACE }) ?? null;
}

/** Why the ripgrep specs cannot run here, or undefined when rg is on PATH. */
export function ripgrepMissing(): string | undefined {
  return ripgrepPath() === null ? "rg is not on PATH (sudo apt-get install ripgrep)" : undefined;
}

const reported = new Set<string>();

/** Says once per file and tool, on stderr, that some of its specs skip and why: a skip must be visible. */
export function reportSkip(file: string, why: string | undefined, what = "the sandbox cannot run here"): void {
  const key = `${file}\0${what}`;
  if (why && !reported.has(key)) {
    reported.add(key);
    process.stderr.write(`SKIP ${file}: ${what}: ${why}\n`);
  }
}
