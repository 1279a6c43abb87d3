/** Keys shorter than this are not hunted for by value: a short test key would match ordinary values. */
const MIN_KEY_CHARS = 8;

/** Variables that exist only for shiro: no command needs them, whatever their value. */
const SHIRO_ONLY = ["SHIRO_API_KEY", "SHIRO_HOME", "SHIRO_BWRAP"];

/**
 * The environment every program shiro starts for the model gets (bash, ripgrep, git, the sandbox
 * runner): the user's environment without the API key shiro uses, whichever variable it came from
 * (`SHIRO_API_KEY`, `OPENAI_API_KEY`, a preset's own variable, or any other that holds it), and
 * without shiro's own variables. Without this, `env`, `printenv X | rev` or a test that logs the
 * environment would put the key in the tool output, the session file and the next request.
 * `extra` is laid on top (the sandbox's TMPDIR, git's safety settings). Pure.
 */
export function childEnv(
  base: Record<string, string | undefined>,
  apiKey: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  const holds = keyHunter(apiKey);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || SHIRO_ONLY.includes(name)) continue;
    if (holds(value)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Whether a variable's value holds the API key (a key too short to hunt for by value never matches). */
export function keyHunter(apiKey: string | undefined): (value: string) => boolean {
  const hunt = apiKey !== undefined && apiKey.length >= MIN_KEY_CHARS ? apiKey : undefined;
  return (value) => hunt !== undefined && value.includes(hunt);
}
