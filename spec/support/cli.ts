import { makeTempDir } from "./temp-dirs.ts";
import { join } from "node:path";
import { HOST_INDEPENDENT_ENV } from "./host-tools.ts";

const repo = join(import.meta.dir, "..", "..");

/**
 * The command that runs shiro: the compiled binary when SHIRO_BIN is set (bun run test), else the
 * source. Bun keeps the transpiled source in `$HOME/.bun`, and every test has its own HOME: the
 * source runs share one cache for the test run instead (set through env(1), whatever environment
 * the test gives), so they do not transpile shiro afresh each time and leave ~200 files per HOME
 * for the end of the run to delete.
 */
export function shiroCommand(): string[] {
  const bin = process.env.SHIRO_BIN;
  if (bin) return [bin];
  transpiled ??= makeTempDir("shiro-transpiled-");
  return ["/usr/bin/env", `BUN_RUNTIME_TRANSPILER_CACHE_PATH=${transpiled}`, process.execPath, join(repo, "cmd", "shiro.ts")];
}
let transpiled: string | undefined;

export type RunResult = { code: number; stdout: string; stderr: string };

export type RunOptions = {
  cwd?: string;
  /** Base URL of the fake server; sets SHIRO_BASE_URL. */
  baseURL?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** A fresh SHIRO_HOME/HOME is made per run unless given. */
  home?: string;
  timeoutMs?: number;
};

/** A fresh directory under the OS temp dir, with symlinks resolved (macOS /var → /private/var). */
export function tempDir(prefix = "shiro-spec-"): string {
  return makeTempDir(prefix); // removed when the run ends
}

/**
 * The environment of a shiro under test: its own HOME and SHIRO_HOME, no colour, short retry
 * backoff, the sandbox off unless the spec turns it on (host-tools.ts), the fake server's URL,
 * and nothing else from this process (no real keys).
 */
export function shiroEnv(home: string, baseURL: string | undefined, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    SHIRO_HOME: join(home, ".shiro-neko"),
    NO_COLOR: "1",
    // The fake server is on 127.0.0.1, which would get the client for compatible servers; the
    // default tests exercise the OpenAI client (item references, store). Vendor tests unset it.
    SHIRO_CLIENT: "openai",
    SHIRO_RETRY_BASE_MS: "20",
    // The plain fake has no context window and serves no model metadata (asking it is a protocol
    // error), so the default tests state one: a known window is never asked about. The window tests
    // unset it (CONTEXT_ENV in spec/e2e/context-window.test.ts).
    SHIRO_CONTEXT_WINDOW: "1000000",
    // The sandbox off, whether or not this machine has bubblewrap (host-tools.ts); the sandbox's specs turn it back.
    ...HOST_INDEPENDENT_ENV,
    ...(baseURL ? { SHIRO_BASE_URL: baseURL } : {}),
    ...extra,
  };
  for (const [k, value] of Object.entries(env)) if (value === undefined) delete env[k];
  return env as Record<string, string>;
}

/** Runs the real CLI to completion, isolated from the real home directory and real keys. */
export async function runShiro(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const home = opts.home ?? tempDir("shiro-home-");
  const child = Bun.spawn([...shiroCommand(), ...args], {
    cwd: opts.cwd ?? tempDir("shiro-work-"),
    env: shiroEnv(home, opts.baseURL, opts.env),
    stdin: opts.stdin !== undefined ? new Blob([opts.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Parses --json output: one object per line, every line must be JSON. */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}
