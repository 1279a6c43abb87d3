import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { childEnv, keyHunter } from "./child-env.ts";
import { detectSandbox, probeSandbox, type SandboxSupport } from "./detect.ts";
import { gitSafetyEnv } from "./git-safety.ts";
import { blockedMessage, checkGit } from "./git-check.ts";
import { gitConfigPaths, planGitShield } from "./git-shield.ts";
import { findHelper, helperCache } from "./helpers.ts";
import { readLoginEnv, type LoginSetup } from "./login-env.ts";
export type { LoginSetup } from "./login-env.ts";
import { createHostRunner, type CommandRunner } from "./process.ts";
import { CREATED_CACHES, type PathKind, type ProfileSummary, bwrapArgs, systemPlaces } from "./profile.ts";
import { RUNNER_ARG } from "./protocol.ts";
import { createSandboxRunner } from "./sandbox.ts";
import { createSecretsWatch } from "./secrets-scan.ts";

export { findHelper, helperCache } from "./helpers.ts";
export { findSecretsFiles } from "./secrets-scan.ts";
export { childEnv } from "./child-env.ts";
export { detectSandbox, installCommand, type SandboxSupport } from "./detect.ts";
export { gitSafetyEnv } from "./git-safety.ts";
export { safePath } from "./helpers.ts";
export { bwrapArgs, CACHE_PLACES, CREDENTIAL_PLACES, type ProfileInput, type ProfileSummary } from "./profile.ts";
export { createHostRunner, failedChild, killGroup, type Child, type ChildExit, type CommandRunner, type SpawnOptions } from "./process.ts";
export { RUNNER_ARG } from "./protocol.ts";
export { sandboxFailure, shortSandboxReason } from "./failure.ts";

/** The sandbox settings (lib/config: `sandbox`, `sandboxNetwork`, `sandboxWritable`, `sandboxReadable`, `sandboxHide`, the flags). */
export type SandboxSettings = { mode: "on" | "off"; network: boolean; writable: readonly string[]; readable: readonly string[]; hide?: readonly string[] };

/** What the header and `shiro doctor` say about the sandbox. */
export type SandboxStatus =
  /** `summary.masked` is empty here: the secrets files are found each time the sandbox starts (findSecretsFiles). */
  | { state: "on"; network: boolean; summary: ProfileSummary }
  /** Turned off on purpose: `--no-sandbox` or config `"sandbox": "off"`. */
  | { state: "off" }
  /** Wanted but impossible here; commands run unsandboxed and the guard and approvals are all there is. */
  | { state: "unavailable"; why: string; fix: string };

/** Where every program shiro runs for the model goes, and what the sandbox is doing. */
export type Commands = {
  /** The sandbox when it is on and works here, else this machine directly. */
  runner: CommandRunner;
  /** This machine directly, for a command the user lets run once outside the sandbox. */
  host: CommandRunner;
  status: SandboxStatus;
  /** A helper program (bash, rg, git) by name, resolved once (helpers.ts); undefined when missing. */
  helper(name: string): string | undefined;
  /** The PATH commands start with, before what the login profile adds (undefined when unset). */
  path?: string;
  /**
   * What the login shell sets up, read once per runner (login-env.ts), for bash to run commands
   * with `bash -c`: without the profile, and with the reason, when it could not be read; undefined
   * without a bash (then bash keeps `bash -lc`).
   */
  loginEnv?(runner: CommandRunner): Promise<LoginSetup | undefined>;
  /**
   * Gets ready for the first command in the background: starts the sandbox when it is on, and
   * reads the login environment. A turn calls it as it begins, so the model's first reply and
   * this overlap instead of the first command paying for both.
   */
  warm?(): void;
};

export type OpenCommandsOptions = {
  settings: SandboxSettings;
  /** Workspace root. */
  root: string;
  /** `$SHIRO_HOME`, hidden in the sandbox. */
  shiroHome: string;
  /** The environment shiro was started with. */
  env: Record<string, string | undefined>;
  /** The key shiro uses; no child's environment holds it. */
  apiKey: string | undefined;
  /** Starts the runner inside the sandbox; defaults to this program (see runnerCommand). */
  runnerCommand?: readonly string[];
  /** Whether the sandbox can run here, when already known (sandboxSupportSoon); else it is found out now, waiting for the try. */
  support?: SandboxSupport;
};

/**
 * Sets up where commands run for one shiro process: resolves the helpers, checks whether the
 * sandbox can run here (bubblewrap from PATH, or `SHIRO_BWRAP`), and builds the runners. Nothing
 * is started until the first command. Every child of either runner gets the environment of
 * childEnv (no key) and gitSafetyEnv (no programs from the repository's git config).
 */
export function openCommands(opts: OpenCommandsOptions): Commands {
  const helper = helperCache({ path: opts.env.PATH, root: opts.root });
  const gitHelper = () => helper("git");
  const base = childEnv(opts.env, opts.apiKey);
  const withGit = (runner: CommandRunner): CommandRunner => ({
    sandboxed: runner.sandboxed,
    spawn: (argv, spawnOpts) => runner.spawn(argv, { ...spawnOpts, env: { ...gitSafetyEnv(opts.root, gitHelper()), ...spawnOpts.env } }),
    close: () => runner.close(),
    warm: () => runner.warm?.(),
  });
  const host = withGit(createHostRunner(base));
  const loginEnvs = new Map<CommandRunner, Promise<LoginSetup | undefined>>();
  const loginEnv = (runner: CommandRunner) => {
    let read = loginEnvs.get(runner);
    if (!read) {
      const shell = helper("bash");
      read = shell ? readLoginEnv(runner, shell, opts.root, keyHunter(opts.apiKey)) : Promise.resolve(undefined);
      loginEnvs.set(runner, read);
    }
    return read;
  };
  // Reading the login environment through a runner is what starts it: the sandbox, when it is on.
  const warm = (runner: CommandRunner) => () => {
    runner.warm?.();
    void loginEnv(runner);
  };
  if (opts.settings.mode === "off") return { runner: host, host, status: { state: "off" }, helper, loginEnv, path: base.PATH, warm: warm(host) };

  const support = opts.support ?? sandboxSupport(opts.env, helper);
  if (!support.available) return { runner: host, host, status: { state: "unavailable", why: support.why, fix: support.fix }, helper, loginEnv, path: base.PATH, warm: warm(host) };

  const home = realOrUndefined(opts.env.HOME || homedir());
  if (home) for (const cache of CREATED_CACHES) ensureDir(join(home, cache));
  const runnerCommand = opts.runnerCommand ?? defaultRunnerCommand();
  const expand = (paths: readonly string[]) => paths.map((path) => expandPath(path, home, opts.root)).filter((path): path is string => path !== undefined);
  const profile = {
    root: realOrUndefined(opts.root) ?? opts.root,
    home,
    shiroHome: realOrUndefined(opts.shiroHome) ?? resolve(opts.shiroHome),
    network: opts.settings.network,
    writable: expand(opts.settings.writable),
    hide: expand(opts.settings.hide ?? []),
    // The runner's own program must be visible even if it lives in a hidden place.
    readable: [...expand(opts.settings.readable), ...runnerFiles(runnerCommand)],
    system: [...new Set(systemPlaces(process.getuid?.()).map((path) => realOrUndefined(path)).filter((path): path is string => path !== undefined))],
    kindOf,
  };
  const runner = withGit(
    createSandboxRunner({
      bwrap: support.bwrap,
      profile,
      runnerCommand,
      env: { ...base, TMPDIR: "/tmp" },
      secrets: createSecretsWatch(profile.root, [profile.shiroHome]),
      git: {
        // The config is read as each sandbox starts: what it includes may have changed since.
        plan: (places) => planGitShield(profile.root, places, gitConfigPaths(profile.root, gitHelper(), opts.env), profile.writable),
        check: (shield, places) => blockedMessage(profile.root, checkGit(profile.root, shield, places, gitHelper(), profile.writable)),
      },
    }),
  );
  // The masked files and nested repositories are found when the sandbox starts; searching the
  // workspace here would slow every start-up. The summary shows the root repository's shield.
  const git = planGitShield(profile.root, [join(profile.root, ".git")], { includes: [] }, profile.writable);
  const { summary } = bwrapArgs({ ...profile, tmp: "/tmp", secrets: [], git });
  return { runner, host, status: { state: "on", network: opts.settings.network, summary }, helper, loginEnv, path: base.PATH, warm: warm(runner) };
}

/** Whether the sandbox can run, with bubblewrap from `SHIRO_BWRAP` (a path; empty means none) or PATH. */
export function sandboxSupport(env: Record<string, string | undefined>, helper: (name: string) => string | undefined): SandboxSupport {
  return detectSandbox(bwrapFor(env, helper));
}

/**
 * sandboxSupport for openCommands' `support`, found out in the background: the try (5–10 ms)
 * runs while the caller goes on with its start-up. The same bubblewrap, found the same way.
 */
export function sandboxSupportSoon(env: Record<string, string | undefined>, root: string): Promise<SandboxSupport> {
  return probeSandbox(bwrapFor(env, (name) => findHelper(name, { path: env.PATH, root })));
}

/** bubblewrap: `SHIRO_BWRAP` when set (empty means none), else the helper found on PATH; undefined when it does not exist. */
function bwrapFor(env: Record<string, string | undefined>, helper: (name: string) => string | undefined): string | undefined {
  const bwrap = env.SHIRO_BWRAP !== undefined ? env.SHIRO_BWRAP || undefined : helper("bwrap");
  return bwrap && existsSync(bwrap) ? bwrap : undefined;
}

/**
 * How this program starts the runner: the compiled binary runs itself with RUNNER_ARG; from the
 * source tree (development, tests) Bun runs the entry cmd/sandbox-runner.ts (a process edge, so in cmd/).
 */
export function defaultRunnerCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/");
  return compiled ? [process.execPath, RUNNER_ARG] : [process.execPath, join(import.meta.dir, "..", "..", "cmd", "sandbox-runner.ts")];
}

/** What the sandbox must show for the runner to start: the program, and for a source entry its folder and lib/ beside it (what it imports). */
function runnerFiles(command: readonly string[]): string[] {
  const shown = (part: string) => (part.endsWith(".ts") ? [join(part, ".."), join(part, "..", "..", "lib")] : [part]);
  return command.filter((part) => isAbsolute(part)).flatMap(shown).map((path) => realOrUndefined(path)).filter((p): p is string => p !== undefined);
}

function kindOf(path: string): PathKind {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

/** `~/x`, an absolute path, or one relative to the workspace root, as its real path; undefined when it does not exist. */
function expandPath(path: string, home: string | undefined, root: string): string | undefined {
  const expanded = path === "~" || path.startsWith("~/") ? (home ? join(home, path.slice(1)) : undefined) : resolve(root, path);
  return expanded === undefined ? undefined : realOrUndefined(expanded);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function ensureDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch {
    // a read-only home: the cache stays read-only in the sandbox too
  }
}
