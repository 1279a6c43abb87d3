import type { CommandRunner } from "./process.ts";

/**
 * What the user's login shell sets up (the PATH of pyenv, nvm, cargo…), read once per runner
 * instead of starting a login shell for every command: a profile that runs `pyenv init` takes
 * 150–200 ms, which `bash -lc` paid on every call. The difference between a plain shell's
 * environment and a login shell's is what commands then get, with `bash -c`.
 */
export type LoginEnv = Record<string, string>;

/** How long the profile may take to run once; past it, commands run without it. */
const READ_TIMEOUT_MS = 10_000;

/**
 * Variables a shell sets for itself, and those shiro sets fresh for every command (git's safety
 * settings, which follow the repository's config): never taken from the snapshot.
 */
const NOT_FROM_PROFILE = /^(?:PWD|OLDPWD|SHLVL|_|GIT_PAGER|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+|TMPDIR)$/;

/** `env -0` output as a map; a NUL ends each `NAME=value`. */
export function parseEnv0(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const entry of text.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return vars;
}

/**
 * The variables the login shell added or changed, less the shell's own and any whose value holds
 * the API key (a profile that exports the key must not hand it to commands). Pure.
 */
export function profileChanges(plain: Map<string, string>, login: Map<string, string>, holdsKey: (value: string) => boolean): LoginEnv {
  const changes: LoginEnv = {};
  for (const [name, value] of login) {
    if (NOT_FROM_PROFILE.test(name) || plain.get(name) === value || holdsKey(value)) continue;
    changes[name] = value;
  }
  return changes;
}

/** Printed between the two environments; having no "=", it is no variable. */
const BETWEEN = "SHIRO_LOGIN_ENV_FOLLOWS";

/**
 * What commands get from the login shell: the variables it adds or changes, and, when it could not
 * be read, why (`problem`, e.g. "it exited with 1: …"); then `vars` is empty and commands run
 * without the profile, which is said once (bash.ts).
 */
export type LoginSetup = { vars: LoginEnv; problem?: string };

/**
 * Runs a plain and a login shell once, one after the other, from one `sh` started through
 * `runner` (so inside the sandbox when commands run there): one process started instead of two.
 * Each shell starts from shiro's environment, as it would on its own (a login shell started by
 * the plain one would inherit what a `BASH_ENV` script exported, and run it again). Returns what
 * the profile changes. When either shell fails, prints nothing readable or takes longer than
 * READ_TIMEOUT_MS, commands run without the profile: a login shell per command would fail (or
 * wait) the same way every time.
 */
export async function readLoginEnv(runner: CommandRunner, shell: string, cwd: string, holdsKey: (value: string) => boolean): Promise<LoginSetup> {
  const script = `"$0" -c 'env -0' && printf '${BETWEEN}\\0' && exec "$0" -lc 'env -0'`;
  const read = await outputOf(runner, ["/bin/sh", "-c", script, shell], cwd);
  if ("problem" in read) return { vars: {}, problem: read.problem };
  const parts = splitEnvs(read.out);
  if (!parts || !parts.login.has("PATH")) return { vars: {}, problem: "it printed no environment" };
  return { vars: profileChanges(parts.plain, parts.login, holdsKey) };
}

/** The two environments of readLoginEnv's output; undefined without the line between them. Pure. */
export function splitEnvs(out: string): { plain: Map<string, string>; login: Map<string, string> } | undefined {
  const at = out.startsWith(`${BETWEEN}\0`) ? 0 : out.indexOf(`\0${BETWEEN}\0`) + 1;
  if (at === 0 && !out.startsWith(BETWEEN)) return undefined;
  return { plain: parseEnv0(out.slice(0, at)), login: parseEnv0(out.slice(at + BETWEEN.length + 1)) };
}

async function outputOf(runner: CommandRunner, argv: string[], cwd: string): Promise<{ out: string } | { problem: string }> {
  const child = runner.spawn(argv, { cwd });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), READ_TIMEOUT_MS);
  });
  try {
    const read = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const result = await Promise.race([read, timedOut]);
    if (!result) {
      void child.stop();
      return { problem: `it ran for more than ${READ_TIMEOUT_MS / 1000} s` };
    }
    const [out, err, exit] = result;
    if (exit.exitCode === 0) return { out };
    const said = lastLine(err);
    const how = exit.signal ? `it was killed by ${exit.signal}` : `it exited with ${exit.exitCode}`;
    return { problem: said ? `${how}: ${said}` : how };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** The last line a failing shell printed, clipped: usually the error that ended it. */
function lastLine(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
